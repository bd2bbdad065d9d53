import { beforeEach, describe, expect, it } from 'vitest'
import { CALLS, CALL_NAMES, JSON_BODY_LIMIT_BYTES, wholeFieldsOf, type CallName } from '@tradegate/shared'
import { useTestStack } from '../helpers'
import { VALID } from './valid-requests'

// Whole numbers in a JSON body (ids, pages, leverage, periods) are judged by the digits the client
// wrote, as amounts are, since the upstream reads those digits and not the float the gateway parsed:
// 2^63 is no id, 1e2 is no leverage and 100.0000000000000001 is no page size.

const stack = useTestStack({ REDIS_URL: '' })
beforeEach(async () => {
  await stack.upstream.resetCalls()
})

const WHOLE_FIELDS = CALL_NAMES.flatMap((name) =>
  wholeFieldsOf(CALLS[name]).map((field) => [`${name} body.${field.key}`, name, field.key] as const),
)

/** The call's valid body with `key` written as the raw JSON text `written`. */
function send(name: CallName, key: string, written: string) {
  const { [key]: _replaced, ...rest } = VALID[name]!
  const others = JSON.stringify(rest).slice(1, -1)
  return stack.gateway.app.inject({
    method: 'POST',
    url: CALLS[name].path,
    payload: `{${others}${others ? ',' : ''}"${key}":${written}}`,
    headers: { 'content-type': 'application/json', satoken: 'whole-number-test-token' },
  })
}

const HOSTILE = [
  '9223372036854775808',
  '18446744073709551617',
  '1e400',
  '1e2',
  '1E1',
  '1.0',
  '100.0000000000000001',
  '-1',
  // a wall of digits filling the body limit
  '9'.repeat(JSON_BODY_LIMIT_BYTES - 200),
]

describe('whole numbers in a JSON body', () => {
  it('has a valid request for every call with one', () => {
    expect(WHOLE_FIELDS.length).toBeGreaterThan(0)
    for (const [, name] of WHOLE_FIELDS) expect(VALID[name], name).toBeDefined()
  })

  it.each(WHOLE_FIELDS)('%s refuses numbers a float would misjudge', async (_label, name, key) => {
    for (const written of HOSTILE) {
      const response = await send(name, key, written)
      expect(response.json(), written.slice(0, 30)).toEqual({
        code: 400,
        msg: 'badRequest',
        detail: `body.${key}`,
      })
    }
    expect(await stack.upstream.totalCalls()).toBe(0)
  })

  it.each(WHOLE_FIELDS)('%s passes a plain whole number on', async (_label, name, key) => {
    const response = await send(name, key, '1')
    expect(response.json().detail).not.toBe(`body.${key}`)
    expect(await stack.upstream.calls()).toEqual({ [CALLS[name].path]: 1 })
  })

  it('judges a bounded field past 2^53 by its digits: 9007199254740993 is no page size', async () => {
    const response = await send('secondOrderList', 'pageSize', '9007199254740993')
    expect(response.json()).toEqual({ code: 400, msg: 'badRequest', detail: 'body.pageSize' })
    // 100 is the largest page, and 100 written with digits a float drops is still refused
    expect((await send('secondOrderList', 'pageSize', '100')).statusCode).toBe(200)
    expect((await send('secondOrderList', 'pageSize', '100.00000000000000001')).statusCode).toBe(400)
    expect(await stack.upstream.calls()).toEqual({ [CALLS.secondOrderList.path]: 1 })
  })

  it('takes an id past 2^53 as written, for the upstream to read the same digits', async () => {
    const response = await send('lossSet', 'positionId', '9007199254740993')
    expect(response.json().detail).not.toBe('body.positionId')
    expect(await stack.upstream.calls()).toEqual({ [CALLS.lossSet.path]: 1 })
  })
})
