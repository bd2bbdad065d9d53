import { describe, expect, it } from 'vitest'
import { containsChinese, decodeForChineseCheck, findChinese } from './chinese'

describe('containsChinese', () => {
  it.each([
    ['common Han', '价格', true],
    ['Han inside latin text', 'btc中usdt', true],
    ['iteration mark', '々', true],
    ['extension B (U+20000)', '\u{20000}', true],
    ['extension C (U+2A700)', '\u{2A700}', true],
    ['extension G (U+30000)', '\u{30000}', true],
    ['compatibility ideograph', '\uF900', true],
    ['ascii', 'BTC/USDT 1.5%', false],
    ['CJK punctuation', '。，、「」『』【】', false],
    ['fullwidth forms', 'ＡＢＣ１２３！？', false],
    ['hiragana and katakana', 'ひらがなカタカナ', false],
    ['hangul', '한국어', false],
    ['emoji', '🚀📈', false],
    ['empty', '', false],
  ])('%s', (_case, text, expected) => {
    expect(containsChinese(text)).toBe(expected)
  })
})

describe('findChinese', () => {
  const circular: Record<string, unknown> = { name: 'loop' }
  circular.self = circular
  const circularWithChinese: Record<string, unknown> = { list: [] }
  ;(circularWithChinese.list as unknown[]).push(circularWithChinese, { note: '备注' })

  it.each<[string, unknown, string | null]>([
    ['root string', '中文', '$'],
    ['root clean string', 'english', null],
    ['astral Han in a value', { memo: 'x\u{20000}' }, '$.memo'],
    ['nested object value', { a: { b: { c: '中' } } }, '$.a.b.c'],
    ['array element', { a: { b: ['x', 'y', '中'] } }, '$.a.b[2]'],
    ['object inside array', [{ ok: 'fine' }, { ok: 'fine', bad: '坏' }], '$[1].bad'],
    ['nested arrays', [[], [['a', ['b', '中']]]], '$[1][0][1][1]'],
    ['Chinese key', { a: { 名字: 'value' } }, '$.a["名字"]'],
    ['Chinese key with clean value', { 名: 1 }, '$["名"]'],
    ['non-identifier key is quoted', { 'order-id': { 'x y': '中' } }, '$["order-id"]["x y"]'],
    ['first offender in order wins', { first: '一', second: '二' }, '$.first'],
    ['key checked before its value', { 键: '值' }, '$["键"]'],
    ['punctuation, kana and hangul allowed', { a: '。，「」', b: ['カナ', '한글'], ｃ: 'ＦＵＬＬ' }, null],
    [
      'numbers, booleans, null, undefined ignored',
      { a: 1, b: true, c: null, d: undefined, e: [0, NaN] },
      null,
    ],
    ['cycle without Chinese', circular, null],
    ['cycle with Chinese after it', circularWithChinese, '$.list[1].note'],
    ['number-like key on an object is quoted', { '0': '中' }, '$["0"]'],
  ])('%s', (_case, input, expected) => {
    expect(findChinese(input)).toBe(expected)
  })

  it('walks 100000 levels of nested arrays without overflowing the stack', () => {
    const depth = 100_000
    let nested: unknown = '中'
    for (let level = 0; level < depth; level++) nested = [nested]
    expect(findChinese(nested)).toBe('$' + '[0]'.repeat(depth))
  })

  it('walks 100000 levels of nested objects and finds nothing when clean', () => {
    let nested: unknown = 'clean'
    for (let level = 0; level < 100_000; level++) nested = { next: nested }
    expect(findChinese(nested)).toBeNull()
  })
})

describe('decodeForChineseCheck', () => {
  const anyVariantIsChinese = (raw: string) => decodeForChineseCheck(raw).some(containsChinese)

  it.each<[string, string, boolean]>([
    ['plain ascii query', 'symbol=btcusdt&side=buy', false],
    ['raw Chinese', 'memo=中', true],
    ['percent-encoded', 'memo=%E4%B8%AD', true],
    ['double percent-encoded', 'memo=%25E4%25B8%25AD', true],
    ['triple percent-encoded', 'memo=%2525E4%2525B8%2525AD', true],
    ['malformed escape alone', 'memo=%E4%B8', false],
    ['malformed escape next to a valid one', 'a=%E4%B8&b=%E4%B8%AD', true],
    ['malformed escape completed by a double-encoded byte', 'memo=%E4%B8%25AD', true],
    ['stray percent signs', '100%&%zz&%', false],
    ['JSON unicode escape', '{"memo":"\\u4e2d"}', true],
    ['uppercase JSON unicode escape', '{"memo":"\\u4E2D"}', true],
    ['escaped backslash before the escape', '{"memo":"\\\\u4e2d"}', true],
    ['surrogate pair escape for U+20000', '{"memo":"\\ud840\\udc00"}', true],
    ['lone surrogate escape', '{"memo":"\\ud840"}', false],
    ['escape of non-Han text', '{"memo":"\\u3002\\u30ab"}', false],
    ['percent-encoded JSON escape', 'memo=%5Cu4e2d', true],
    ['JSON-escaped percent encoding', '{"memo":"\\u0025E4\\u0025B8\\u0025AD"}', true],
    ['percent-encoded CJK punctuation', 'memo=%E3%80%82', false],
  ])('%s', (_case, raw, expected) => {
    expect(anyVariantIsChinese(raw)).toBe(expected)
  })

  it('returns the raw text first, then each distinct decoding', () => {
    expect(decodeForChineseCheck('%25E4%25B8%25AD')).toEqual(['%25E4%25B8%25AD', '%E4%B8%AD', '中'])
  })

  it('returns only the raw text when there is nothing to decode', () => {
    expect(decodeForChineseCheck('plain')).toEqual(['plain'])
  })

  it('stops after a bounded number of rounds', () => {
    let encoded = '中'
    for (let layer = 0; layer < 10; layer++) encoded = encodeURIComponent(encoded)
    expect(anyVariantIsChinese(encoded)).toBe(false)
  })
})
