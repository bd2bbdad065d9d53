// Bundles the sandbox upstream into one ESM file for its image target, like gateway/build.mjs does
// for the gateway: the shared contract goes inside, every dependency stays external.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const { dependencies } = JSON.parse(readFileSync(here('../gateway/package.json'), 'utf8'))
const external = Object.keys(dependencies).filter((name) => name !== '@tradegate/shared')
const outfile = process.argv[2] ?? here('../gateway/dist/sandbox.js')

await build({
  entryPoints: [here('../gateway/sandbox/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
})
console.log(`sandbox: built ${outfile}`)
