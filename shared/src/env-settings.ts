import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'

// The one way a process of this repository reads its settings from the environment: the gateway
// (gateway/src/config.ts) and the sandbox (gateway/sandbox/main.ts). Each setting is a TypeBox
// schema and a default; a missing or empty variable takes the default, any other value must convert
// to its schema, or the start stops with a message naming the variable.

export type EnvSettings = Record<string, { schema: TSchema; default: unknown }>

/** The values read: each setting's schema type, or undefined where that is its default. */
export type SettingsOf<T extends EnvSettings> = {
  [K in keyof T]: Static<T[K]['schema']> | (undefined extends T[K]['default'] ? undefined : never)
}

/** A variable whose value its schema refuses; the message names it. */
export class EnvSettingError extends Error {}

export function readEnvSettings<T extends EnvSettings>(
  settings: T,
  env: Record<string, string | undefined>,
): SettingsOf<T> {
  const values: Record<string, unknown> = {}
  for (const [name, { schema, default: fallback }] of Object.entries(settings)) {
    const raw = env[name]
    if (raw === undefined || raw === '') {
      values[name] = fallback
      continue
    }
    const value = Value.Convert(schema, raw)
    if (!Value.Check(schema, value))
      throw new EnvSettingError(`${name}: invalid value ${JSON.stringify(raw)}`)
    values[name] = value
  }
  return values as SettingsOf<T>
}
