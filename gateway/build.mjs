// Bundles the gateway and the sandbox upstream into one ESM file each; the shared contract goes
// inside, every dependency stays external. `node build.mjs [gateway outfile]`.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const { dependencies } = JSON.parse(readFileSync(here('./package.json'), 'utf8'))
const external = Object.keys(dependencies).filter((name) => name !== '@tradegate/shared')

async function bundle(name, entry, outfile) {
  await build({
    entryPoints: [here(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    logLevel: 'warning',
  })
  console.log(`${name}: built ${outfile}`)
}

await bundle('gateway', './src/main.ts', process.argv[2] ?? here('./dist/main.js'))
await bundle('sandbox', './sandbox/main.ts', here('./dist/sandbox.js'))
