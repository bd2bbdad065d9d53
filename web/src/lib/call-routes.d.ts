declare module 'virtual:call-routes' {
  import type { CALLS, CallName } from '@tradegate/shared'

  /**
   * Method, path, body type, session need and session end of each call, projected from the call table at
   * build time.
   */
  export const CALL_ROUTES: {
    readonly [N in CallName]: Pick<(typeof CALLS)[N], 'method' | 'path'> & {
      readonly bodyType?: 'json' | 'multipart'
      /** the call needs the session */
      readonly auth?: true
      /** the call ends every session of the user: `always`, or once it succeeded */
      readonly endsSessions?: 'always' | 'onSuccess'
    }
  }
}
