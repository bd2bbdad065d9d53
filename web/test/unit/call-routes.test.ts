import { readFileSync } from 'node:fs'
import { CALL_ROUTES } from 'virtual:call-routes'
import { describe, expect, it } from 'vitest'
import {
  CALLS,
  CALL_NAMES,
  MONEY_TEXT_PATTERN,
  AmountText,
  USDT_SCALE,
  PASSWORD_LENGTH,
  Password,
} from '@tradegate/shared'
import { callRoutesPlugin } from '../../scripts/call-routes'

describe('the client projection of the call table', () => {
  it('gives every call the method, path, body type, session need and session end of the table and nothing else', () => {
    expect(Object.keys(CALL_ROUTES).sort()).toEqual([...CALL_NAMES].sort())
    for (const name of CALL_NAMES) {
      const call = CALLS[name]
      const expected = {
        method: call.method,
        path: call.path,
        ...('bodyType' in call ? { bodyType: call.bodyType } : {}),
        ...('auth' in call && call.auth ? { auth: true } : {}),
        ...('endsSessions' in call ? { endsSessions: call.endsSessions } : {}),
      }
      expect(CALL_ROUTES[name], name).toEqual(expected)
    }
    // the user's own state (refetched after a gap in the live stream) and public data both exist
    expect(CALL_ROUTES.assetBalance.auth).toBe(true)
    expect(CALL_ROUTES.getAllSetting.auth).toBeUndefined()
    // the page signs itself out on the calls that end the user's sessions
    expect(CALL_ROUTES.loginOut.endsSessions).toBe('always')
    expect(CALL_ROUTES.updateUserLoginPwd.endsSessions).toBe('onSuccess')
    expect(
      Object.values(CALL_ROUTES).filter((route) => route.bodyType === 'multipart').length,
    ).toBeGreaterThan(0)
  })

  // the plugin builds the call table from its TypeScript source, which takes seconds on a busy machine
  it('is plain data, so the schema library stays out of the browser', { timeout: 120_000 }, async () => {
    const plugin = callRoutesPlugin()
    const resolve = plugin.resolveId as (id: string) => string | undefined
    const load = plugin.load as (this: { addWatchFile(file: string): void }, id: string) => Promise<string>
    const id = resolve('virtual:call-routes')
    expect(id).toBeDefined()
    expect(resolve('virtual:other')).toBeUndefined()
    const source = await load.call({ addWatchFile: () => undefined }, id as string)
    expect(source).toMatch(/^export const CALL_ROUTES = Object\.freeze\(\{/)
    expect(source).not.toMatch(/import|require|schema|typebox/i)
  })

  it('reads envelope rules and form patterns from shared modules that import no schema library', () => {
    for (const file of ['envelope.ts', 'patterns.ts', 'money.ts', 'gateway-errors.ts']) {
      const source = readFileSync(new URL(`../../../shared/src/${file}`, import.meta.url), 'utf8')
      expect(source, file).not.toMatch(/^import /m)
    }
    // the plain values are the ones the schemas are built from
    expect((AmountText(USDT_SCALE) as { pattern?: string }).pattern).toBe(MONEY_TEXT_PATTERN)
    expect((Password as { minLength?: number }).minLength).toBe(PASSWORD_LENGTH.min)
    expect((Password as { maxLength?: number }).maxLength).toBe(PASSWORD_LENGTH.max)
  })
})
