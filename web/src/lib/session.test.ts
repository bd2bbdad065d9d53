import { describe, expect, it } from 'vitest'
import { STORAGE_KEYS } from '@tradegate/shared'
import {
  LOGIN_SUCCESS_EVENT,
  currentToken,
  readAutoLoginParameters,
  sessionEndReason,
  signIn,
  signOut,
} from './session'

describe('session', () => {
  it('stores the token and the automatic sign-in parameters and announces the sign-in', () => {
    let announced = 0
    window.addEventListener(LOGIN_SUCCESS_EVENT, () => announced++)
    signIn({ satoken: 'tok-1', loginKey: 'login-key-1' })
    expect(currentToken()).toBe('tok-1')
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-1')
    expect(readAutoLoginParameters()).toEqual({ loginKey: 'login-key-1' })
    expect(announced).toBe(1)
  })

  it('signs out: token, user info and session storage cleared, the test-platform flag kept', () => {
    signIn({ satoken: 'tok-2', loginKey: 'login-key-2' })
    localStorage.setItem(STORAGE_KEYS.userInfo, '{}')
    localStorage.setItem(STORAGE_KEYS.testPlatform, '1')
    localStorage.setItem(STORAGE_KEYS.theme, 'light')
    sessionStorage.setItem('draft', 'x')
    sessionStorage.setItem(STORAGE_KEYS.testPlatform, '1')
    signOut({ forgetAutoLogin: false })
    expect(currentToken()).toBe('')
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEYS.userInfo)).toBeNull()
    expect(sessionStorage.getItem('draft')).toBeNull()
    expect(sessionStorage.getItem(STORAGE_KEYS.testPlatform)).toBe('1')
    expect(localStorage.getItem(STORAGE_KEYS.testPlatform)).toBe('1')
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('light')
    expect(readAutoLoginParameters()).toEqual({ loginKey: 'login-key-2' })
  })

  it('keeps why a session ended for the sign-in screen until the next sign-in, and none for an own sign-out', () => {
    signIn({ satoken: 'tok-4', loginKey: 'login-key-4' })
    signOut({ forgetAutoLogin: true, ended: 'newPassword' })
    expect(sessionEndReason()).toBe('newPassword')
    signIn({ satoken: 'tok-5', loginKey: 'login-key-5' })
    expect(sessionEndReason()).toBeNull()
    signOut({ forgetAutoLogin: false, ended: 'elsewhere' })
    expect(sessionEndReason()).toBe('elsewhere')
    signIn({ satoken: 'tok-6', loginKey: 'login-key-6' })
    signOut({ forgetAutoLogin: true })
    expect(sessionEndReason()).toBeNull()
  })

  it("forgets automatic sign-in on the user's own sign-out", () => {
    signIn({ satoken: 'tok-3', loginKey: 'login-key-3' })
    signOut({ forgetAutoLogin: true })
    expect(readAutoLoginParameters()).toBeNull()
  })
})
