import { DEFAULT_FEED_TOKEN, DEFAULT_TICK_MS, startSandbox } from './app'

// `npm run sandbox`: environment -> sandbox -> one line with its URL -> clean stop on a signal.

function integerFromEnv(
  name: string,
  fallback: number | undefined,
  min: number,
  max: number,
): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
    process.exit(1)
  }
  return value
}

const sandbox = await startSandbox({
  port: integerFromEnv('SANDBOX_PORT', 8081, 0, 65535),
  host: process.env.SANDBOX_HOST || '127.0.0.1',
  seed: integerFromEnv('SANDBOX_SEED', undefined, 0, 2 ** 32 - 1),
  tickMs: integerFromEnv('SANDBOX_TICK_MS', DEFAULT_TICK_MS, 10, 60_000),
  feedToken: process.env.FEED_TOKEN || DEFAULT_FEED_TOKEN,
  logger: { level: process.env.LOG_LEVEL || 'warn' },
})
console.log(`sandbox listening on ${sandbox.url} (seed ${sandbox.seed}, invite code ${sandbox.inviteCode})`)

let stopping = false
const stop = async (signal: string) => {
  if (stopping) return
  stopping = true
  await sandbox.close()
  console.log(`sandbox stopped (${signal})`)
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
