// Bundles the gateway and the sandbox upstream into one ESM file each; the shared contract goes
// inside, and so does typebox (below); every other dependency stays external. `node build.mjs [gateway outfile]`.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const { dependencies } = JSON.parse(readFileSync(here('./package.json'), 'utf8'))
// typebox goes inside too: it ships as some 700 ES modules, and Node keeps a module record, a loader
// cache entry and the source text of each for the life of the process (about 2.6 MiB of an idle
// gateway's heap, loadtests/LIFECYCLE.md); bundled, only what the call table uses is there, once
const INSIDE = new Set(['@tradegate/shared', 'typebox'])
const external = Object.keys(dependencies).filter((name) => !INSIDE.has(name))

async function bundle(name, entry, outfile) {
  await build({
    entryPoints: [here(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    // V8 keeps a module's source text for the life of the process, to compile functions on first call:
    // without whitespace and comments it is about half as long, and one byte a character (a comment's
    // "…" made the whole bundle UTF-16). Names stay, so stack traces still name their functions, and the
    // source map (`node --enable-source-maps`) gives their lines
    minifyWhitespace: true,
    sourcemap: true,
    logLevel: 'warning',
  })
  console.log(`${name}: built ${outfile}`)
}

await bundle('gateway', './src/main.ts', process.argv[2] ?? here('./dist/main.js'))
await bundle('sandbox', './sandbox/main.ts', here('./dist/sandbox.js'))
