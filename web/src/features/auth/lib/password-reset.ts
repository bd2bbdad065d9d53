// The verified e-mail and code carried from /forget to /setpwd, and the reset's outcome carried on to the
// sign-in screen; kept in memory only, never stored.

export interface PendingReset {
  email: string
  emailCode: string
}

let pending: PendingReset | null = null

export function rememberReset(reset: PendingReset): void {
  pending = reset
}

export function takeReset(): PendingReset | null {
  return pending
}

let done = false

/** The new password is set: the sign-in screen says so once, where the user signs in with it. */
export function markResetDone(): void {
  pending = null
  done = true
}

/** Whether a reset has just been done and the sign-in screen has not yet said so. */
export function resetDone(): boolean {
  return done
}

/** Said: a later visit to the sign-in screen does not say it again. */
export function forgetResetDone(): void {
  done = false
}
