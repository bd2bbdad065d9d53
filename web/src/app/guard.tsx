import { useEffect, useEffectEvent, type ReactNode } from 'react'
import { useLocation, useSearch } from 'wouter'
import { LoadingBlock } from '../components/loading-block'
import { useSession } from '../lib/session'
import { signInLink } from '../lib/return-path'
import { autoSignIn, loadUserInfo } from '../lib/user'
import { isPublicPath } from './routes'

let autoSignInAttempt: Promise<boolean> | null = null

/** One automatic sign-in at a time, however many navigations ask for it. */
function attemptAutoSignIn(): Promise<boolean> {
  autoSignInAttempt ??= autoSignIn().finally(() => {
    autoSignInAttempt = null
  })
  return autoSignInAttempt
}

/**
 * Signed out on a protected path: try automatic sign-in, staying on the path asked for on success and
 * going to /login otherwise, which returns to that path once signed in.
 * Signed in: refresh user info on every navigation, and send invitation-style paths (/i&...) home.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation()
  const search = useSearch()
  const { token, userInfo } = useSession()
  const signedIn = token !== ''
  const hasUserInfo = userInfo !== null
  const allowed = signedIn || isPublicPath(location)

  // hasUserInfo is read, not watched: a refreshed user info must not trigger another refresh;
  // the loading toast only while there is nothing to show yet; later refreshes run silently
  const refreshUserInfo = useEffectEvent(() => void loadUserInfo({ withLoadingToast: !hasUserInfo }))

  useEffect(() => {
    if (signedIn) {
      if (location.includes('/i&')) navigate('/', { replace: true })
      else refreshUserInfo()
      return
    }
    if (isPublicPath(location)) return
    // signed in again, the link opened stays where it pointed (its query too): the guard now lets it render
    void attemptAutoSignIn().then((success) => {
      if (!success) navigate(signInLink(search ? `${location}?${search}` : location), { replace: true })
    })
  }, [location, search, signedIn, navigate])

  return allowed ? <>{children}</> : <LoadingBlock />
}
