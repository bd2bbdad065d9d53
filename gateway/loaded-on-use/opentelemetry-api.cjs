// @opentelemetry/api for the bundle: prom-client loads it at start and reads it only for exemplars,
// which the gateway's metrics do not enable. The real module is loaded from node_modules on first use.
// See build.mjs.
const name = '@opentelemetry/api'
let real
module.exports = new Proxy({}, { get: (_target, key) => (real ??= require(name))[key] })
