import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

// Fails the build when the JavaScript the home route loads up front (the entry chunk, the home screen
// chunk and everything they import statically) exceeds the budget, gzip-compressed.

export const HOME_BUDGET_BYTES = 150 * 1024
export const HOME_SCREEN_SOURCE = 'src/features/home/screens/home.tsx'

/** Chunk files reached from the given manifest keys through static imports only. */
export function staticClosure(manifest, roots) {
  const seen = new Set()
  const files = new Set()
  const visit = (key) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`manifest has no entry ${key}`)
    if (chunk.file.endsWith('.js')) files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const root of roots) visit(root)
  return [...files]
}

export async function measureHomeRoute(distDir) {
  const manifest = JSON.parse(await readFile(join(distDir, '.vite', 'manifest.json'), 'utf8'))
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry)
  if (entries.length === 0) throw new Error('manifest has no entry chunk')
  const files = staticClosure(manifest, [...entries, HOME_SCREEN_SOURCE])
  const sizes = await Promise.all(
    files.map(async (file) => ({
      file,
      gzip: gzipSync(await readFile(join(distDir, file)), { level: 9 }).length,
    })),
  )
  return { files: sizes, total: sizes.reduce((sum, item) => sum + item.gzip, 0) }
}

async function main() {
  const distDir = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url))
  const budget = Number(process.env.HOME_BUDGET_BYTES ?? HOME_BUDGET_BYTES)
  const { files, total } = await measureHomeRoute(distDir)
  for (const { file, gzip } of files) console.log(`${(gzip / 1024).toFixed(1).padStart(7)} KB  ${file}`)
  console.log(
    `${(total / 1024).toFixed(1).padStart(7)} KB  home route initial JS (gzip), budget ${(budget / 1024).toFixed(0)} KB`,
  )
  if (total > budget) {
    console.error(`over budget by ${((total - budget) / 1024).toFixed(1)} KB`)
    process.exit(1)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
