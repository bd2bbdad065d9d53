import { timingSafeEqual } from 'node:crypto'

/** Compares in constant time, so a wrong token reveals nothing about the right one. */
export function sameToken(given: string, expected: Buffer): boolean {
  const candidate = Buffer.from(given)
  return candidate.length === expected.length && timingSafeEqual(candidate, expected)
}
