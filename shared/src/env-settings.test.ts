import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { EnvSettingError, readEnvSettings } from './env-settings'

const SETTINGS = {
  PORT: { schema: Type.Integer({ minimum: 0, maximum: 65535 }), default: 8080 },
  NAME: { schema: Type.String({ minLength: 1 }), default: 'gateway' },
  SEED: { schema: Type.Integer(), default: undefined },
}

describe('settings from the environment', () => {
  it('takes the default for a missing or empty variable and converts the others to their schema', () => {
    expect(readEnvSettings(SETTINGS, {})).toEqual({ PORT: 8080, NAME: 'gateway', SEED: undefined })
    expect(readEnvSettings(SETTINGS, { PORT: '', NAME: 'edge', SEED: '42' })).toEqual({
      PORT: 8080,
      NAME: 'edge',
      SEED: 42,
    })
  })

  it('refuses a value its schema does not hold, naming the variable', () => {
    expect(() => readEnvSettings(SETTINGS, { PORT: '70000' })).toThrow(EnvSettingError)
    expect(() => readEnvSettings(SETTINGS, { SEED: 'twelve' })).toThrow('SEED: invalid value "twelve"')
  })
})
