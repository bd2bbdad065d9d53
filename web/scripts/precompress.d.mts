import type { Plugin } from 'vite'

export function precompressDirectory(dir: string): Promise<number>
export function precompress(): Plugin
