import { setTimeout as sleep } from 'node:timers/promises'
import closeWithGrace from 'close-with-grace'
import { ConfigError, loadConfig, type GatewayConfig } from './config'
import { buildGateway } from './app'

// Reads the environment once, starts the gateway, and on SIGTERM/SIGINT drains it and exits in time.

function readConfig(): GatewayConfig {
  try {
    return loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`gateway: bad configuration: ${error.message}`)
    process.exit(1)
  }
}

/** How long before SHUTDOWN_TIMEOUT_MS ends the requests still in flight are answered: time to write
 * their answers and close their connections before the process exits. */
const SHUTDOWN_ANSWER_MARGIN_MS = 1000
/** A request answered 503 by a shutdown is retried at once: the load balancer sends it elsewhere. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 1

const config = readConfig()
const app = await buildGateway(config)

/** Log lines are written asynchronously; the last ones must reach stdout before the process exits. */
function flushLogs(): Promise<void> {
  const logger = app.log as typeof app.log & { flush?: (done: (error?: Error) => void) => void }
  return new Promise((resolve) => (logger.flush ? logger.flush(() => resolve()) : resolve()))
}

closeWithGrace(
  {
    delay: config.SHUTDOWN_TIMEOUT_MS,
    logger: { error: (message: unknown) => app.log.error({ event: 'shutdown_error' }, String(message)) },
  },
  async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error; shutting down')
    app.log.info({ event: 'shutdown', signal }, 'draining')
    // readiness fails and new requests get 503 while in-flight ones finish
    app.readiness.draining = true
    // what has not finished shortly before the grace ends (a hung upstream, an upload still arriving) is
    // answered then: a 503 a client can retry elsewhere, not a connection reset when the process exits
    const answerAt = setTimeout(
      () => {
        const answered = app.answerInFlight(SHUTDOWN_RETRY_AFTER_SECONDS)
        if (answered === 0) return
        app.log.warn(
          { event: 'shutdown_answered', requests: answered },
          'answered in-flight requests with 503',
        )
        // nobody waits for their upstream calls any more; a graceful close would wait for a hung upstream
        void app.upstream.abandon()
      },
      Math.max(config.SHUTDOWN_TIMEOUT_MS - SHUTDOWN_ANSWER_MARGIN_MS, config.SHUTDOWN_TIMEOUT_MS / 2),
    )
    if (config.SHUTDOWN_DRAIN_MS > 0) await sleep(config.SHUTDOWN_DRAIN_MS)
    await app.close()
    clearTimeout(answerAt)
    app.log.info({ event: 'shutdown_complete' }, 'closed')
    await flushLogs()
  },
)

try {
  // a deep accept queue so a reconnect storm of thousands of sockets is not refused by the kernel
  await app.listen({ port: config.PORT, host: config.HOST, backlog: 8192 })
} catch (error) {
  app.log.fatal({ err: error }, 'could not listen')
  await flushLogs()
  process.exit(1)
}
