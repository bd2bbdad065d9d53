import { chineseVerdict, findChinese } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'

// The Chinese-character rule and the shape limits, applied to everything a request carries before upstream sees it.

/** Refuses raw text (a query string, a body, a multipart part) that breaks the Chinese rule. */
export function checkRawText(raw: string, where: string, onChinese: () => void): void {
  const verdict = chineseVerdict(raw)
  if (verdict === 'clean') return
  if (verdict === 'tooDeeplyEncoded') throw new GatewayError(400, 'badRequest', where)
  onChinese()
  throw new GatewayError(400, 'cannotInputChinese', where)
}

/** Where in a parsed body a refused value sits, for the answer's detail; only called once a refusal is certain. */
export function chineseDetail(body: unknown, where: string): string {
  const path = findChinese(body)
  return path === null || path === '$' ? where : `${where}${path.slice(1)}`
}

export interface ShapeLimits {
  maxDepth: number
  /** keys plus array items, every string included */
  maxMembers: number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

/**
 * Refuses JSON text nesting deeper than `maxDepth` or holding more than `maxMembers` keys and array items,
 * in one scan before anything parses it, so an oversized shape costs a scan and not a parse and three walks.
 * Returns the members counted, which `checkNoRepeatedKeys` compares with the parsed value.
 */
export function checkJsonShape(text: string, limits: ShapeLimits): number {
  let depth = 0
  let members = 0
  let inString = false
  // a container's first member has no comma before it
  let awaitingFirstMember = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
      continue
    }
    if (awaitingFirstMember && !WHITESPACE.has(code)) {
      awaitingFirstMember = false
      if (code !== CLOSE_BRACE && code !== CLOSE_BRACKET) members++
    }
    if (code === QUOTE) inString = true
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) throw new GatewayError(400, 'badRequest', 'body')
      awaitingFirstMember = true
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--
    else if (code === COMMA) members++
    if (members > limits.maxMembers) throw new GatewayError(400, 'badRequest', 'body')
  }
  return members
}

/**
 * Refuses a JSON body that names a key twice. The parser keeps the last value and the gateway checks
 * that one, while the upstream, which receives the bytes as sent, might read the first: so a parsed body
 * must hold every member the text wrote.
 */
export function checkNoRepeatedKeys(parsed: unknown, membersWritten: number): void {
  if (membersOf(parsed) !== membersWritten) throw new GatewayError(400, 'badRequest', 'body')
}

function membersOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  let count = children.length
  for (const child of children) count += membersOf(child)
  return count
}
