import fp from 'fastify-plugin'
import { errorBody } from '../../lib/errors'

// Liveness is the process answering; readiness is every registered dependency answering.

export interface Readiness {
  /** a check returns null when ready, or the reason it is not */
  check(name: string, probe: () => string | null): void
  /** set once shutdown begins: readiness fails and new requests get 503 */
  draining: boolean
  reasons(): string[]
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness
  }
}

/** Routes that keep answering while the gateway drains or sheds load, so operators can still see it. */
export const PROBE_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

export const healthPlugin = fp(
  async (app) => {
    const probes = new Map<string, () => string | null>()
    const readiness: Readiness = {
      draining: false,
      check: (name, probe) => void probes.set(name, probe),
      reasons() {
        const reasons = readiness.draining ? ['shutting down'] : []
        for (const [name, probe] of probes) {
          const reason = probe()
          if (reason) reasons.push(`${name}: ${reason}`)
        }
        return reasons
      },
    }
    app.decorate('readiness', readiness)

    // once draining, only the probes still answer; everything else is told to go elsewhere
    app.addHook('onRequest', (request, reply, done) => {
      if (!readiness.draining || PROBE_ROUTES.has(request.routeOptions.url ?? '')) return done()
      reply.code(503).header('connection', 'close').send(errorBody(503, 'serviceUnavailable'))
    })
    // answers that finish while draining close their keep-alive connection, so the server can close
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (readiness.draining) reply.header('connection', 'close')
      done(null, payload)
    })

    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))
    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      const reasons = readiness.reasons()
      if (reasons.length) return reply.code(503).send({ status: 'not ready', reasons })
      return { status: 'ready' }
    })
  },
  { name: 'health' },
)
