import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Vitest global setup: builds web/dist (which the gateway serves) when it is missing or older than the sources.

const webDir = fileURLToPath(new URL('../..', import.meta.url))
// the client is built from its own sources and the shared contract it imports
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'scripts', '../shared/src']

function newestChange(path: string): number {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)))
  return newest
}

export function distIsStale(): boolean {
  const builtIndex = join(webDir, 'dist', 'index.html')
  if (!existsSync(builtIndex)) return true
  const built = statSync(builtIndex).mtimeMs
  return SOURCES.some((source) => newestChange(join(webDir, source)) > built)
}

export default function buildOnce(): void {
  if (!distIsStale()) return
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js')
  // vitest runs with NODE_ENV=test, which would make Vite bundle React's development build
  const env = { ...process.env, NODE_ENV: 'production' }
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
    env,
  })
  execFileSync(process.execPath, ['scripts/check-budget.mjs'], { cwd: webDir, stdio: 'inherit', env })
}
