import { describe, expect, it } from 'vitest'
import { isGatewayErrorBody } from './gateway-errors'

describe('isGatewayErrorBody', () => {
  it.each([
    [{ code: 400, msg: 'cannotInputChinese' }, true],
    [{ code: 504, msg: 'upstreamTimeout', detail: 'x' }, true],
    [{ code: 200, msg: 'ok' }, false],
    [{ code: '400', msg: 'badRequest' }, false],
    [null, false],
    ['badRequest', false],
  ])('%j -> %s', (value, expected) => {
    expect(isGatewayErrorBody(value)).toBe(expected)
  })
})
