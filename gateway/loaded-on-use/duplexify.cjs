// duplexify for the bundle: @fastify/websocket loads it at start for `injectWS`, a test helper the
// gateway never calls. The real module is loaded from node_modules on first use. See build.mjs.
const name = 'duplexify'
module.exports = function Duplexify(...args) {
  const Real = require(name)
  return new Real(...args)
}
