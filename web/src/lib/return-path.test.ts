import { describe, expect, it } from 'vitest'
import { returnPathOf, signInLink } from './return-path'

describe('the way back after signing in', () => {
  it('keeps the screen and its query', () => {
    expect(signInLink('/withdraw?coin=xrp')).toBe('/login?next=%2Fwithdraw%3Fcoin%3Dxrp')
    expect(returnPathOf(new URLSearchParams('next=%2Fwithdraw%3Fcoin%3Dxrp').get('next'))).toBe(
      '/withdraw?coin=xrp',
    )
  })

  it('goes home for home, for nothing, and for the sign-in screens themselves', () => {
    expect(signInLink('/')).toBe('/login')
    expect(signInLink('/login?next=%2Fwallet')).toBe('/login')
    expect(returnPathOf(null)).toBeNull()
    expect(returnPathOf('')).toBeNull()
    expect(returnPathOf('/register?i=1')).toBeNull()
  })

  it('never leaves the app', () => {
    for (const elsewhere of [
      '//evil.example/x',
      'https://evil.example',
      'javascript:alert(1)',
      '/\\evil.example',
    ])
      expect(returnPathOf(elsewhere), elsewhere).toBeNull()
  })
})
