// mime-db for the bundle: @fastify/compress loads it at start and reads it only for an answer whose
// content type its own pattern does not already call compressible (JSON and text never reach it). Parsed,
// its 2,279 types held 0.3 MiB of an idle gateway's heap. The real module is loaded from node_modules on
// first use. See build.mjs.
const name = 'mime-db'
let real
module.exports = new Proxy({}, { get: (_target, key) => (real ??= require(name))[key] })
