// glob for the bundle: @fastify/static loads it at start but calls it only with `wildcard: false`, which
// the gateway never sets. The real module is loaded from node_modules on the first call, so an instance
// never keeps its source (about 100 kB with its own dependencies). See build.mjs.
const name = 'glob'
exports.glob = (...args) => require(name).glob(...args)
