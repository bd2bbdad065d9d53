import { describe, expect, it } from 'vitest'
import { shortHash } from './short-hash'

describe('shortHash', () => {
  it('keeps the first six and last four characters of a long hash', () => {
    expect(shortHash(`0x${'ab'.repeat(32)}`)).toBe('0xabab…abab')
    expect(shortHash('3f9c0d1e2a7b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d9')).toBe('3f9c0d…c4d9')
  })

  it('leaves a hash that is already short as it is', () => {
    expect(shortHash('abcdef12345')).toBe('abcdef12345')
  })
})
