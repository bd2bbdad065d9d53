// The verified e-mail and code carried from /forget to /setpwd; kept in memory only, never stored.

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

export function clearReset(): void {
  pending = null
}
