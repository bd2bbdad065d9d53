// Script=Han rather than a block range so every CJK extension, astral planes included, is covered
// while CJK punctuation, fullwidth forms, kana and hangul (other scripts) stay allowed.
const HAN_CHARACTER = /\p{Script=Han}/u
// Text that is all ASCII has no Han character and no compatibility form of one, so it skips normalisation.
const NON_ASCII = /[^\x20-\x7e\t\n\r]/
// Plain ASCII without escapes reads the same however it is decoded: one quick test settles it.
const MAY_HIDE_TEXT = /[^\x20-\x24\x26-\x5b\x5d-\x7e\t\n\r]/

/**
 * How many times a value may be decoded (percent escapes and JSON escapes, in one pass each) before it must
 * stop changing: room for a value percent-encoded twice and JSON-escaped on top, and one layer more.
 */
export const MAX_DECODE_ROUNDS = 4

// One scan per round finds Han characters and escapes alike, so a Chinese value stops the scan where it stands.
const HAN_OR_ESCAPE = /\p{Script=Han}|(?:%[0-9A-Fa-f]{2})+|\\(?:u[0-9A-Fa-f]{4}|\\)/gu

const IDENTIFIER_KEY = /^[A-Za-z_$][\w$]*$/
const ARRAY_INDEX_KEY = /^(?:0|[1-9]\d*)$/

/**
 * True for Han script in the text or in its NFKC form: compatibility characters such as ㊀ (U+3280),
 * ㈠ (U+3220), 🈯 (U+1F22F) and ㍻ (U+337B) are another script but normalise to Han.
 */
export function containsChinese(text: string): boolean {
  if (HAN_CHARACTER.test(text)) return true
  return NON_ASCII.test(text) && HAN_CHARACTER.test(text.normalize('NFKC'))
}

/** `chinese`: Han in some reading of the text; `tooDeeplyEncoded`: still decoding after MAX_DECODE_ROUNDS. */
export type ChineseVerdict = 'clean' | 'chinese' | 'tooDeeplyEncoded'

/**
 * The rule for raw text as it arrives (a query string, a body, a multipart part): percent escapes and JSON
 * escapes are decoded until the text stops changing, and every reading and its NFKC form is checked for Han.
 * Text still changing after MAX_DECODE_ROUNDS is refused as a whole rather than checked part way.
 */
export function chineseVerdict(raw: string): ChineseVerdict {
  if (!MAY_HIDE_TEXT.test(raw)) return 'clean'
  let text = raw
  for (let round = 0; ; round++) {
    const decoded = decodeOnceUnlessChinese(text)
    if (decoded === null) return 'chinese'
    if (decoded !== text) {
      if (round === MAX_DECODE_ROUNDS) return 'tooDeeplyEncoded'
      text = decoded
      continue
    }
    // stable: its compatibility characters may still normalise to Han or to new escapes (％Ｅ４ is %E4)
    if (!NON_ASCII.test(text)) return 'clean'
    const normalised = text.normalize('NFKC')
    if (normalised === text) return 'clean'
    text = normalised
  }
}

/** The text with one layer of percent and JSON escapes decoded, or null at the first Han character. */
function decodeOnceUnlessChinese(text: string): string | null {
  let decoded = ''
  let copiedUpTo = 0
  for (const match of text.matchAll(HAN_OR_ESCAPE)) {
    const token = match[0]
    const first = token.charCodeAt(0)
    if (first !== 0x25 && first !== 0x5c) return null
    decoded +=
      text.slice(copiedUpTo, match.index) +
      (first === 0x25 ? decodePercentRun(token) : decodeJsonEscape(token))
    copiedUpTo = match.index + token.length
  }
  return copiedUpTo === 0 ? text : decoded + text.slice(copiedUpTo)
}

interface PendingValue {
  value: unknown
  key: string | null
  parent: PendingValue | null
}

/**
 * Paths look like `$.a.b[2]`; keys that are not plain identifiers are quoted, as in `$.a["名字"]`,
 * and a Chinese key is reported with the path of its own property.
 */
export function findChinese(value: unknown): string | null {
  // An explicit stack instead of recursion: arbitrarily deep input must not overflow the call stack.
  const pending: PendingValue[] = [{ value, key: null, parent: null }]
  const visited = new Set<object>()

  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.key !== null && containsChinese(current.key)) return pathOf(current)
    const item = current.value
    if (typeof item === 'string') {
      if (containsChinese(item)) return pathOf(current)
      continue
    }
    if (typeof item !== 'object' || item === null || visited.has(item)) continue
    visited.add(item)

    const record = item as Record<string, unknown>
    const keys = Object.keys(record)
    // Pushed last-first so entries are examined in their original order.
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index] as string
      pending.push({ value: record[key], key, parent: current })
    }
  }
  return null
}

// Built only for the offending value, so clean input never pays for path strings.
function pathOf(found: PendingValue): string {
  const segments: string[] = []
  for (let node: PendingValue | null = found; node !== null; node = node.parent) {
    if (node.key === null || node.parent === null) continue
    segments.push(pathSegment(node.key, Array.isArray(node.parent.value)))
  }
  return '$' + segments.reverse().join('')
}

function pathSegment(key: string, parentIsArray: boolean): string {
  if (parentIsArray && ARRAY_INDEX_KEY.test(key)) return `[${key}]`
  if (IDENTIFIER_KEY.test(key)) return `.${key}`
  return `[${JSON.stringify(key)}]`
}

// Malformed UTF-8 sequences are kept as their literal escapes so a later round can still combine them.
function decodePercentRun(run: string): string {
  let decoded = ''
  let position = 0
  while (position < run.length) {
    const width = utf8SequenceWidth(Number.parseInt(run.slice(position + 1, position + 3), 16))
    const end = position + width * 3
    if (width > 0 && end <= run.length) {
      try {
        decoded += decodeURIComponent(run.slice(position, end))
        position = end
        continue
      } catch {
        // invalid continuation bytes: fall through and keep this escape as text
      }
    }
    decoded += run.slice(position, position + 3)
    position += 3
  }
  return decoded
}

function utf8SequenceWidth(leadByte: number): number {
  if (leadByte < 0x80) return 1
  if (leadByte >= 0xc2 && leadByte <= 0xdf) return 2
  if (leadByte >= 0xe0 && leadByte <= 0xef) return 3
  if (leadByte >= 0xf0 && leadByte <= 0xf4) return 4
  return 0
}

// An escaped backslash is unescaped too, so `\\u4e2d` becomes `\u4e2d` and is decoded next round.
function decodeJsonEscape(escape: string): string {
  return escape === '\\\\' ? '\\' : String.fromCharCode(Number.parseInt(escape.slice(2), 16))
}
