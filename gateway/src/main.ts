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
    if (config.SHUTDOWN_DRAIN_MS > 0) await sleep(config.SHUTDOWN_DRAIN_MS)
    await app.close()
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
