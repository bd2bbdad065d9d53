import fp from 'fastify-plugin'
import { errorBody } from '../../lib/errors'

// Liveness is the process answering; readiness is "can serve REST". Dependencies REST can do
// without (Redis, the live feed) are reported in /readyz's body and in metrics, never as unready.

export interface Readiness {
  /** a check returns null when ready, or the reason it is not */
  check(name: string, probe: () => string | null): void
  /** a state shown in /readyz's body that does not decide readiness */
  report(name: string, probe: () => string): void
  /** set once shutdown begins: readiness fails and new requests get 503 */
  draining: boolean
  reasons(): string[]
  states(): Record<string, string>
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness
  }
}

/** Routes that keep answering while the gateway drains or sheds load, so operators can still see it. */
export const PROBE_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

/** How often readiness is evaluated so that a change is logged even while nobody probes. */
const WATCH_INTERVAL_MS = 1000

function createReadiness(): Readiness {
  const probes = new Map<string, () => string | null>()
  const reports = new Map<string, () => string>()
  const readiness: Readiness = {
    draining: false,
    check: (name, probe) => void probes.set(name, probe),
    report: (name, probe) => void reports.set(name, probe),
    reasons() {
      const reasons = readiness.draining ? ['shutting down'] : []
      for (const [name, probe] of probes) {
        const reason = probe()
        if (reason) reasons.push(`${name}: ${reason}`)
      }
      return reasons
    },
    states: () => Object.fromEntries([...reports].map(([name, probe]) => [name, probe()])),
  }
  return readiness
}

export const healthPlugin = fp(
  async (app) => {
    const readiness = createReadiness()
    app.decorate('readiness', readiness)

    // every change of readiness is logged once, with the reasons, whether or not anything probes
    let lastReasons: string | null = null
    const watch = (): string[] => {
      const reasons = readiness.reasons()
      const key = reasons.join('\n')
      if (key === lastReasons) return reasons
      const first = lastReasons === null
      lastReasons = key
      if (reasons.length) app.log.warn({ event: 'not_ready', reasons }, 'not ready')
      else if (!first) app.log.info({ event: 'ready' }, 'ready')
      return reasons
    }
    let watcher: NodeJS.Timeout | null = null
    app.addHook('onReady', async () => {
      watch()
      watcher = setInterval(watch, WATCH_INTERVAL_MS).unref()
    })
    app.addHook('onClose', async () => {
      if (watcher) clearInterval(watcher)
    })

    // once draining, only the probes still answer; everything else, socket upgrades included, is
    // told to go elsewhere at once
    app.addHook('onRequest', (request, reply, done) => {
      if (!readiness.draining || PROBE_ROUTES.has(request.routeOptions.url ?? '')) return done()
      reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', 1)
        .send(errorBody(503, 'serviceUnavailable'))
    })
    // answers that finish while draining close their keep-alive connection, so the server can close
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (readiness.draining) reply.header('connection', 'close')
      done(null, payload)
    })

    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))
    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      const reasons = watch()
      const states = readiness.states()
      if (reasons.length) return reply.code(503).send({ status: 'not ready', reasons, ...states })
      return { status: 'ready', ...states }
    })
  },
  { name: 'health' },
)
