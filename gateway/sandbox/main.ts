import { Type } from 'typebox'
import { EnvSettingError, readEnvSettings } from '@tradegate/shared'
import { DEFAULT_FEED_TOKEN, DEFAULT_TICK_MS, startSandbox } from './app'

// `npm run sandbox`: environment -> sandbox -> one line with its URL -> clean stop on a signal. The
// environment is read as the gateway reads its own (shared/src/env-settings.ts).

const SETTINGS = {
  SANDBOX_PORT: { schema: Type.Integer({ minimum: 0, maximum: 65535 }), default: 8081 },
  SANDBOX_HOST: { schema: Type.String({ minLength: 1 }), default: '127.0.0.1' },
  /** same seed, same prices; random when unset */
  SANDBOX_SEED: { schema: Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 }), default: undefined },
  SANDBOX_TICK_MS: { schema: Type.Integer({ minimum: 10, maximum: 60_000 }), default: DEFAULT_TICK_MS },
  FEED_TOKEN: { schema: Type.String({ minLength: 1 }), default: DEFAULT_FEED_TOKEN },
  LOG_LEVEL: { schema: Type.String({ minLength: 1 }), default: 'warn' },
}

function readSettings() {
  try {
    return readEnvSettings(SETTINGS, process.env)
  } catch (error) {
    if (!(error instanceof EnvSettingError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

const settings = readSettings()
const sandbox = await startSandbox({
  port: settings.SANDBOX_PORT,
  host: settings.SANDBOX_HOST,
  seed: settings.SANDBOX_SEED,
  tickMs: settings.SANDBOX_TICK_MS,
  feedToken: settings.FEED_TOKEN,
  logger: { level: settings.LOG_LEVEL },
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
