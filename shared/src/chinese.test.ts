import { describe, expect, it } from 'vitest'
import { MAX_DECODE_ROUNDS, chineseVerdict, containsChinese, findChinese } from './chinese'

describe('containsChinese', () => {
  it.each([
    ['common Han', '价格', true],
    ['Han inside latin text', 'btc中usdt', true],
    ['iteration mark', '々', true],
    ['extension B (U+20000)', '\u{20000}', true],
    ['extension C (U+2A700)', '\u{2A700}', true],
    ['extension G (U+30000)', '\u{30000}', true],
    ['compatibility ideograph', '\uF900', true],
    ['circled ideograph one ㊀ (U+3280), Han once normalised', 'a\u3280b', true],
    ['parenthesized ideograph one ㈠ (U+3220)', '\u3220', true],
    ['squared ideograph 🈯 (U+1F22F)', '\u{1F22F}', true],
    ['square era name ㍻ (U+337B)', '\u337B', true],
    ['Kangxi radical ⼀ (U+2F00)', '\u2F00', true],
    ['squared katakana 🈁 normalises to kana, not Han', '\u{1F201}', false],
    ['fullwidth letters normalise to ASCII', 'ｃｏｉｎ', false],
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

describe('chineseVerdict', () => {
  const encodeTimes = (text: string, times: number) => {
    let encoded = text
    for (let layer = 0; layer < times; layer++) encoded = encodeURIComponent(encoded)
    return encoded
  }
  const escapeTimes = (text: string, times: number) => {
    let escaped = text
    for (let layer = 0; layer < times; layer++) escaped = JSON.stringify(escaped).slice(1, -1)
    return escaped
  }

  it.each<[string, string, 'clean' | 'chinese' | 'tooDeeplyEncoded']>([
    ['plain ascii query', 'symbol=btcusdt&side=buy', 'clean'],
    ['raw Chinese', 'memo=中', 'chinese'],
    ['percent-encoded', 'memo=%E4%B8%AD', 'chinese'],
    ['double percent-encoded', 'memo=%25E4%25B8%25AD', 'chinese'],
    ['triple percent-encoded', 'memo=%2525E4%2525B8%2525AD', 'chinese'],
    ['malformed escape alone', 'memo=%E4%B8', 'clean'],
    ['malformed escape next to a valid one', 'a=%E4%B8&b=%E4%B8%AD', 'chinese'],
    ['malformed escape completed by a double-encoded byte', 'memo=%E4%B8%25AD', 'chinese'],
    ['stray percent signs', '100%&%zz&%', 'clean'],
    ['JSON unicode escape', '{"memo":"\\u4e2d"}', 'chinese'],
    ['uppercase JSON unicode escape', '{"memo":"\\u4E2D"}', 'chinese'],
    ['escaped backslash before the escape', '{"memo":"\\\\u4e2d"}', 'chinese'],
    ['surrogate pair escape for U+20000', '{"memo":"\\ud840\\udc00"}', 'chinese'],
    ['lone surrogate escape', '{"memo":"\\ud840"}', 'clean'],
    ['escape of non-Han text', '{"memo":"\\u3002\\u30ab"}', 'clean'],
    ['percent-encoded JSON escape', 'memo=%5Cu4e2d', 'chinese'],
    ['JSON-escaped percent encoding', '{"memo":"\\u0025E4\\u0025B8\\u0025AD"}', 'chinese'],
    ['percent-encoded CJK punctuation', 'memo=%E3%80%82', 'clean'],
    ['raw ㊀ (U+3280)', '{"username":"a㊀b"}', 'chinese'],
    ['percent-encoded ㈠ (U+3220)', 'memo=%E3%88%A0', 'chinese'],
    ['JSON-escaped 🈯 (U+1F22F)', '{"memo":"\\ud83c\\ude2f"}', 'chinese'],
    ['JSON-escaped ㍻ (U+337B)', '{"memo":"\\u337b"}', 'chinese'],
    ['fullwidth percent escapes normalise to %E4%B8%AD', 'memo=％Ｅ４％Ｂ８％ＡＤ', 'chinese'],
    ['kana, hangul and fullwidth letters', '{"name":"かなカナ한국어ＡＢＣ"}', 'clean'],
    ['a password with a percent sign', 'pwd=p%2540ss', 'clean'],
    [
      'a value still changing after the last round',
      encodeTimes('100%', MAX_DECODE_ROUNDS + 1),
      'tooDeeplyEncoded',
    ],
  ])('%s', (_case, raw, expected) => {
    expect(chineseVerdict(raw)).toBe(expected)
  })

  it.each([1, 2, 3, 4])('finds Chinese percent-encoded %i times', (times) => {
    expect(chineseVerdict(`memo=${encodeTimes('中', times)}`)).toBe('chinese')
  })

  it.each([1, 2, 3, 4])('finds Chinese JSON-escaped %i times', (times) => {
    expect(chineseVerdict(`{"memo":"${escapeTimes('\\u4e2d', times - 1)}"}`)).toBe('chinese')
  })

  it.each([5, 6, 10])('refuses a value percent-encoded %i times as too deeply encoded', (times) => {
    expect(chineseVerdict(`memo=${encodeTimes('中', times)}`)).toBe('tooDeeplyEncoded')
    expect(chineseVerdict(`memo=${encodeTimes('100%', times)}`)).toBe('tooDeeplyEncoded')
  })

  it.each([5, 6, 10])('refuses a value backslash-escaped %i times as too deeply encoded', (times) => {
    expect(chineseVerdict(`{"memo":"${escapeTimes('\\u4e2d', times - 1)}"}`)).toBe('tooDeeplyEncoded')
  })

  it('stops at the first Chinese character without decoding what follows', () => {
    const tail = '%2525'.repeat(10_000)
    expect(chineseVerdict(`中${tail}`)).toBe('chinese')
  })
})
