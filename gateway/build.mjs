// Bundles the gateway and the sandbox upstream into one ESM file each, their dependencies inside (below).
// `node build.mjs [gateway outfile]`.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
// The dependencies go inside: Node keeps a module record, a loader cache entry and the source text of
// every file it loads for the life of the process (typebox alone ships some 700 ES modules, Fastify,
// pino, prom-client and their own dependencies some 400 CommonJS files), and bundled they are one
// module and one source text. What stays outside is loaded from node_modules when it is needed:
// - Fastify's schema compilers and light-my-request, which the gateway never runs (app.ts sets its own
//   compilers; inject is for tests): inside, their source would be kept without ever running;
// - mime-db, a JSON file: Node parses it and keeps the data, where inside, the source would be kept too;
// - what the sources load with their own `createRequire` (ioredis only with REDIS_URL, undici's Pool
//   and RetryAgent from their own files, busboy's Dicer), which esbuild does not follow.
const external = [
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'light-my-request',
  'mime-db',
]
// esbuild's ESM output has no `require` for the CommonJS dependencies inside to load Node's own modules
// (and those outside) with: the banner gives them one
const requireForCommonJs =
  "import { createRequire as createRequireForCommonJs } from 'node:module'; const require = createRequireForCommonJs(import.meta.url);"

async function bundle(name, entry, outfile) {
  await build({
    entryPoints: [here(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    banner: { js: requireForCommonJs },
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
