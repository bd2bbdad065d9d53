// Where the sign-in screen sends the user back to: the screen they had opened when the app found them
// signed out. It travels in the login link's `next` and is taken only as a path of this app, never
// as an address elsewhere (`//host`, `https:`) nor as the sign-in screens themselves.

const SIGN_IN_PATHS = ['/login', '/register', '/forget', '/setpwd']

/** The sign-in link that returns to `path` (its query included) once signed in. */
export function signInLink(path: string): string {
  return path === '/' || returnPathOf(path) === null ? '/login' : `/login?next=${encodeURIComponent(path)}`
}

/** The app path a login screen's query asks to return to, or null to go home. */
export function returnPathOf(next: string | null): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null
  const pathOnly = next.split('?')[0]!
  return SIGN_IN_PATHS.includes(pathOnly) ? null : next
}
