import fp from 'fastify-plugin'

// Liveness is the process answering; readiness is "can serve REST". Dependencies REST can do
// without (Redis, the live feed) are reported in /readyz's body and in metrics, never as unready.

export interface Readiness {
  /** a check returns null when ready, or the reason it is not */
  check(name: string, probe: () => string | null): void
  /** a state shown in /readyz's body that does not decide readiness */
  report(name: string, probe: () => string): void
  /** set once shutdown begins: readiness fails, answers close their connection, upgrades get 503 */
  draining: boolean
  reasons(): string[]
  states(): Record<string, string>
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness
  }
}

/** Routes that keep answering while the gateway sheds load, so operators can still see it. */
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

    // Once draining, requests are still answered in full: a load balancer that has not yet seen the
    // failing readiness may send one more, and a POST refused here could not be retried elsewhere
    // (nginx never resends one a gateway has received). Each answer closes its keep-alive connection,
    // so the load balancer opens its next one to another instance and the server can close; socket
    // upgrades are refused (503) by the live plugin, so sockets go elsewhere at once.
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
