declare module 'virtual:call-routes' {
  import type { CALLS, CallName } from '@tradegate/shared'

  /** Method, path, body type and session need of each call, projected from the call table at build time. */
  export const CALL_ROUTES: {
    readonly [N in CallName]: Pick<(typeof CALLS)[N], 'method' | 'path'> & {
      readonly bodyType?: 'json' | 'multipart'
      /** the call needs the session */
      readonly auth?: true
    }
  }
}
