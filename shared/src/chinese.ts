// Script=Han rather than a block range so every CJK extension, astral planes included, is covered
// while CJK punctuation, fullwidth forms, kana and hangul (other scripts) stay allowed.
const HAN_CHARACTER = /\p{Script=Han}/u

// Enough to unwrap a value that was percent-encoded twice and JSON-escaped on top, yet cheap on big bodies.
const MAX_DECODE_ROUNDS = 4

const IDENTIFIER_KEY = /^[A-Za-z_$][\w$]*$/
const ARRAY_INDEX_KEY = /^(?:0|[1-9]\d*)$/

export function containsChinese(text: string): boolean {
  return HAN_CHARACTER.test(text)
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

/**
 * Every reading of a raw query string or body that a gateway must check, starting with the raw text.
 * Percent and JSON unicode escapes are peeled off repeatedly, so double encoding does not hide Chinese.
 */
export function decodeForChineseCheck(raw: string): string[] {
  const variants = [raw]
  const seen = new Set(variants)
  let frontier = [raw]
  for (let round = 0; round < MAX_DECODE_ROUNDS && frontier.length > 0; round++) {
    const next: string[] = []
    for (const text of frontier) {
      for (const decoded of [decodePercentEscapes(text), decodeJsonUnicodeEscapes(text)]) {
        if (seen.has(decoded)) continue
        seen.add(decoded)
        variants.push(decoded)
        next.push(decoded)
      }
    }
    frontier = next
  }
  return variants
}

function decodePercentEscapes(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodePercentRun)
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

// Escaped backslashes are unescaped too, so `\\u4e2d` becomes `\u4e2d` and is decoded next round.
function decodeJsonUnicodeEscapes(text: string): string {
  return text.replace(/\\(?:u([0-9A-Fa-f]{4})|\\)/g, (_escape, hex: string | undefined) =>
    hex === undefined ? '\\' : String.fromCharCode(Number.parseInt(hex, 16)),
  )
}
