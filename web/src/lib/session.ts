import { useSyncExternalStore } from 'react'
import { STORAGE_KEYS, type Session, type UserInfo } from '@tradegate/shared'
import { createStore } from './external-store'
import { readJson, readText, removeKey, writeJson, writeText } from './storage'

export interface SessionState {
  token: string
  userInfo: UserInfo | null
}

export interface AutoLoginParameters {
  loginKey: string
}

/** Fired on window after any successful sign-in, so independent parts (live socket, caches) can react. */
export const LOGIN_SUCCESS_EVENT = 'login-success'

const sessionStore = createStore<SessionState>({
  token: readText(STORAGE_KEYS.token) ?? '',
  userInfo: readJson<UserInfo>(STORAGE_KEYS.userInfo),
})

export const session = {
  get: sessionStore.get,
  subscribe: sessionStore.subscribe,
}

export function currentToken(): string {
  return sessionStore.get().token
}

/** Stores a fresh session and the parameters automatic sign-in will send next time. */
export function signIn(fresh: Pick<Session, 'satoken' | 'loginKey'>): void {
  writeText(STORAGE_KEYS.token, fresh.satoken)
  try {
    sessionStorage.removeItem(STORAGE_KEYS.sessionEnded)
  } catch {
    // session storage blocked: there is no note to forget
  }
  if (fresh.loginKey)
    writeJson(STORAGE_KEYS.autoLogin, { loginKey: fresh.loginKey } satisfies AutoLoginParameters)
  sessionStore.set({ ...sessionStore.get(), token: fresh.satoken })
  window.dispatchEvent(new CustomEvent(LOGIN_SUCCESS_EVENT))
}

export function setUserInfo(userInfo: UserInfo): void {
  writeJson(STORAGE_KEYS.userInfo, userInfo)
  sessionStore.set({ ...sessionStore.get(), userInfo })
}

export function readAutoLoginParameters(): AutoLoginParameters | null {
  const stored = readJson<Partial<AutoLoginParameters>>(STORAGE_KEYS.autoLogin)
  return typeof stored?.loginKey === 'string' && stored.loginKey !== '' ? { loginKey: stored.loginKey } : null
}

/**
 * Why a session ended other than by the user's own sign-out, which the sign-in screen says rather than
 * appearing from nowhere: `newPassword`, the user's own new password here (it ends every session of the
 * account); `elsewhere`, anything else (a password changed or a sign-out on another device, an expiry).
 */
export type SessionEndReason = 'newPassword' | 'elsewhere'

export interface SignOutOptions {
  /** an expired token keeps them so the guard can sign in again; a user's own sign-out forgets them */
  forgetAutoLogin: boolean
  ended?: SessionEndReason
}

/** Clears token, user info and session storage; the test-platform flag survives in both storages. */
export function signOut({ forgetAutoLogin, ended }: SignOutOptions): void {
  removeKey(STORAGE_KEYS.token)
  removeKey(STORAGE_KEYS.userInfo)
  if (forgetAutoLogin) removeKey(STORAGE_KEYS.autoLogin)
  try {
    const testPlatform = sessionStorage.getItem(STORAGE_KEYS.testPlatform)
    sessionStorage.clear()
    if (testPlatform !== null) sessionStorage.setItem(STORAGE_KEYS.testPlatform, testPlatform)
    if (ended) sessionStorage.setItem(STORAGE_KEYS.sessionEnded, ended)
  } catch {
    // session storage blocked: nothing to clear
  }
  sessionStore.set({ token: '', userInfo: null })
}

/** Why the user's session ended, when it was not their own sign-out and they have not signed in since. */
export function sessionEndReason(): SessionEndReason | null {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEYS.sessionEnded)
    if (stored === null) return null
    return stored === 'newPassword' ? 'newPassword' : 'elsewhere'
  } catch {
    return null
  }
}

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get)
}
