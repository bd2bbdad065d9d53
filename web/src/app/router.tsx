import { Suspense, type ReactNode } from 'react'
import { Route, Router, Switch, useLocation } from 'wouter'
import { LoadingBlock } from '../components/loading-block'
import { hashHref, useHashPath, useHashSearch } from '../lib/hash-location'
import { ErrorBoundary } from './error-boundary'
import { NotFound } from './not-found'
import { RouteGuard } from './guard'
import { AppLayout } from './layout'
import { ROUTES } from './routes'

export function AppRouter() {
  return (
    <Router hook={useHashPath} searchHook={useHashSearch} hrefs={hashHref}>
      <AppLayout>
        <RouteGuard>
          <RouteErrorBoundary>
            <Suspense fallback={<LoadingBlock />}>
              <Switch>
                {ROUTES.map(({ path, screen: Screen }) => (
                  <Route key={path} path={path} component={Screen} />
                ))}
                <Route component={NotFound} />
              </Switch>
            </Suspense>
          </RouteErrorBoundary>
        </RouteGuard>
      </AppLayout>
    </Router>
  )
}

function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation()
  return <ErrorBoundary resetKey={location}>{children}</ErrorBoundary>
}
