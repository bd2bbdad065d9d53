import { isCode200, type Session } from '@tradegate/shared'
import { ApiError, callApi, callEnvelope } from './http'
import { readAutoLoginParameters, setUserInfo, signIn, signOut } from './session'
import { showLoading } from './toast'

// Sign-in completion, automatic sign-in and the user-info load, shared by the guard and the auth screens.

let inFlight: Promise<void> | null = null

/**
 * Loads user info; the loading toast shows when asked (first load after sign-in) and a refused answer
 * signs the user out. Concurrent loads share one request.
 */
export function loadUserInfo({ withLoadingToast = false } = {}): Promise<void> {
  if (inFlight) return inFlight
  const hide = withLoadingToast ? showLoading() : () => undefined
  inFlight = callApi('userInfo', {}, { accept: isCode200, quiet: true })
    .then(setUserInfo)
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.reason === 'refused') signOut({ forgetAutoLogin: true })
    })
    .finally(() => {
      hide()
      inFlight = null
    })
  return inFlight
}

export async function completeSignIn(fresh: Pick<Session, 'satoken' | 'loginKey'>): Promise<void> {
  signIn(fresh)
  await loadUserInfo({ withLoadingToast: true })
}

/** Tries the stored automatic sign-in parameters; the server's message is toasted when it refuses. */
export async function autoSignIn(): Promise<boolean> {
  const parameters = readAutoLoginParameters()
  if (!parameters) return false
  try {
    const envelope = await callEnvelope(
      'autoLogin',
      { body: { loginKey: parameters.loginKey } },
      {
        accept: (answer) =>
          isCode200(answer) && Boolean((answer.data as Partial<Session> | undefined)?.satoken),
      },
    )
    const fresh = envelope.data
    if (!fresh) return false
    await completeSignIn({ satoken: fresh.satoken, loginKey: fresh.loginKey || parameters.loginKey })
    return true
  } catch {
    return false
  }
}

/**
 * The user's own sign-out: tells the server, and the call forgets everything here, automatic sign-in
 * included, whatever the server said (the call table marks it as ending the user's sessions).
 */
export async function signOutByUser(): Promise<void> {
  await callApi('loginOut', {}, { quiet: true }).catch(() => undefined)
}
