// Bundles the gateway and the sandbox upstream into one ESM file each, their dependencies inside (below).
// `node build.mjs [gateway outfile] [--if-stale]`: with --if-stale, only when a built file is missing or
// older than something it is built from (`npm start` and the bench ask so; `npm run build` always builds).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
// The dependencies go inside: Node keeps a module record, a loader cache entry and the source text of
// every file it loads for the life of the process (typebox alone ships some 700 ES modules, Fastify,
// pino, prom-client and their own dependencies some 400 CommonJS files), and bundled they are one
// module and one source text. What stays outside is loaded from node_modules when it is needed:
// - Fastify's schema compilers and light-my-request, which the gateway never runs (app.ts sets its own
//   compilers; inject is for tests): inside, their source would be kept without ever running;
// - what the sources load with their own `createRequire` (undici's Pool and RetryAgent from their own
//   files, busboy's Dicer), which esbuild does not follow;
// - ioredis, loaded only with REDIS_URL: it is bundled on its own, into ioredis.cjs beside the gateway
//   (its 57 files and their dependencies as one source, 0.2 MiB less heap in an idle gateway).
const external = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request']
// Loaded at start by the dependencies but not run by the gateway: each is swapped for a small module
// (loaded-on-use/) that loads the real one from node_modules on first use, so an idle instance does not
// keep their source (about 300 kB, a sixth of the bundle), nor mime-db's parsed types (0.3 MiB of an idle
// gateway's heap). readable-stream is a copy of Node's own streams for older Nodes: @fastify/compress gets
// Node's.
const alias = {
  glob: here('./loaded-on-use/glob.cjs'),
  duplexify: here('./loaded-on-use/duplexify.cjs'),
  '@opentelemetry/api': here('./loaded-on-use/opentelemetry-api.cjs'),
  'mime-db': here('./loaded-on-use/mime-db.cjs'),
  'readable-stream': 'node:stream',
}
// esbuild's ESM output has no `require` for the CommonJS dependencies inside to load Node's own modules
// (and those outside) with: the banner gives them one
const requireForCommonJs =
  "import { createRequire as createRequireForCommonJs } from 'node:module'; const require = createRequireForCommonJs(import.meta.url);"

async function bundle(name, entry, outfile, options = {}) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    alias,
    banner: { js: requireForCommonJs },
    ...options,
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

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'if-stale': { type: 'boolean' } },
})
const gatewayOutfile = positionals[0] ?? here('./dist/main.js')
// src/plugins/external/redis.ts loads BUNDLED_IOREDIS when the build defines it, and ioredis otherwise
const bundledIoredis = './ioredis.cjs'
const ioredisOutfile = join(dirname(gatewayOutfile), bundledIoredis)
const sandboxOutfile = here('./dist/sandbox.js')

/** The newest modification under `path`, tests and node_modules left out. */
function newestModification(path) {
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = 0
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts')) continue
    newest = Math.max(newest, newestModification(join(path, entry)))
  }
  return newest
}

function builtFilesAreCurrent() {
  const sources = ['./src', './sandbox', './loaded-on-use', './build.mjs', './package.json', '../shared/src']
  const lockfile = here('../package-lock.json')
  const newestSource = Math.max(
    ...sources.map((source) => newestModification(here(source))),
    existsSync(lockfile) ? statSync(lockfile).mtimeMs : 0,
  )
  const built = [gatewayOutfile, ioredisOutfile, sandboxOutfile]
  return built.every((file) => existsSync(file) && statSync(file).mtimeMs >= newestSource)
}

if (values['if-stale'] && builtFilesAreCurrent()) {
  console.log(`gateway: ${gatewayOutfile} is current`)
  process.exit(0)
}
await bundle('gateway', here('./src/main.ts'), gatewayOutfile, {
  define: { BUNDLED_IOREDIS: JSON.stringify(bundledIoredis) },
})
await bundle('ioredis', createRequire(import.meta.url).resolve('ioredis'), ioredisOutfile, {
  format: 'cjs',
  banner: {},
})
await bundle('sandbox', here('./sandbox/main.ts'), sandboxOutfile)
