import { containsChinese, decodeForChineseCheck, findChinese } from '@tradegate/shared'

// The Chinese-character rule and shape limits, applied to everything a request carries before upstream sees it.

// Text without escapes or non-ASCII characters reads the same however it is decoded, so it needs no decoding.
const MAY_HIDE_TEXT = /[%\\\u0080-\uffff]/

/** True when the raw text, or any percent/JSON-unescaped reading of it, holds a Chinese character. */
export function rawTextHasChinese(raw: string): boolean {
  if (!MAY_HIDE_TEXT.test(raw)) return false
  for (const variant of decodeForChineseCheck(raw)) if (containsChinese(variant)) return true
  return false
}

/** Where a parsed value (keys included) holds Chinese, re-reading each string for hidden escapes; null if nowhere. */
export function locateChinese(value: unknown): string | null {
  const direct = findChinese(value)
  if (direct !== null) return direct
  return findEscapedChinese(value)
}

function findEscapedChinese(root: unknown): string | null {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'string') {
      if (rawTextHasChinese(item)) return '$'
      continue
    }
    if (typeof item !== 'object' || item === null) continue
    for (const [key, child] of Object.entries(item)) {
      if (rawTextHasChinese(key)) return '$'
      pending.push(child)
    }
  }
  return null
}

/** True when arrays and objects nest deeper than `maxDepth`; iterative so hostile depth cannot overflow the stack. */
export function nestsDeeperThan(root: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }]
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!
    if (typeof value !== 'object' || value === null) continue
    if (depth >= maxDepth) return true
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 })
  }
  return false
}
