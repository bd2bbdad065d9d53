import { runnerImport, type Plugin } from 'vite'
import type { CALLS, CallName } from '@tradegate/shared'

// The client needs only method, path, body type, session need and session end of each call; the call
// table also builds every request and answer schema at load, which would put the whole schema library in
// the first download. This module hands the client that projection of the table, generated from the
// table at build time.

export const CALL_ROUTES_ID = 'virtual:call-routes'
const RESOLVED_ID = `\0${CALL_ROUTES_ID}`

export interface CallRoute {
  method: 'GET' | 'POST'
  path: string
  bodyType?: 'json' | 'multipart'
  /** the call needs the session: its answer is the user's own state, refetched after a live gap */
  auth?: true
  /** the call ends every session of the user (the call table's rule): this page's too */
  endsSessions?: 'always' | 'onSuccess'
}

export function callRoutes(calls: typeof CALLS): Record<CallName, CallRoute> {
  const routes = {} as Record<CallName, CallRoute>
  for (const [name, call] of Object.entries(calls) as [CallName, (typeof CALLS)[CallName]][]) {
    const route: CallRoute = { method: call.method, path: call.path }
    if ('bodyType' in call) route.bodyType = call.bodyType
    if ('auth' in call && call.auth) route.auth = true
    if ('endsSessions' in call) route.endsSessions = call.endsSessions
    routes[name] = route
  }
  return routes
}

export function callRoutesPlugin(): Plugin {
  return {
    name: 'tradegate:call-routes',
    resolveId(id) {
      return id === CALL_ROUTES_ID ? RESOLVED_ID : undefined
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined
      // the shared package is TypeScript source, so it is loaded through Vite's own module runner
      const { module, dependencies } = await runnerImport<{ CALLS: typeof CALLS }>('@tradegate/shared', {
        configFile: false,
        logLevel: 'silent',
      })
      for (const file of dependencies) this.addWatchFile(file)
      return `export const CALL_ROUTES = Object.freeze(${JSON.stringify(callRoutes(module.CALLS))})\n`
    },
  }
}
