import { existsSync } from 'node:fs'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { promisify } from 'node:util'

// Writes .br and .gz siblings of every built file, so the gateway can serve them without compressing.

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Already compressed formats gain nothing from a second pass. */
const SKIP = /\.(br|gz|png|jpe?g|gif|webp|avif|woff2?|zip|apk)$/i

/** @param {string} dir @returns {AsyncGenerator<string>} */
async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* walk(path)
    } else yield path
  }
}

/** Compresses every eligible file under `dir`; returns how many files got siblings. */
/** @param {string} dir */
export async function precompressDirectory(dir) {
  let count = 0
  for await (const path of walk(dir)) {
    if (SKIP.test(path)) continue
    const content = await readFile(path)
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: (await stat(path)).size,
        },
      }),
      gzipAsync(content, { level: 9 }),
    ])
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)])
    count++
  }
  return count
}

/** Vite plugin: precompresses the output directory once the bundle is written. */
/** @returns {import('vite').Plugin} */
export function precompress() {
  let outDir = 'dist'
  return {
    name: 'tradegate-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir)
    },
    async closeBundle(error) {
      // a failed build has nothing to compress and its own error to report
      if (error || !existsSync(outDir)) return
      await precompressDirectory(outDir)
    },
  }
}
