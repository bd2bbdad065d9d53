import type { Plugin } from 'vite'

export function inlineEntryCss(): Plugin
