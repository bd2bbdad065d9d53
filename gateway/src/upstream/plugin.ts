import fp from 'fastify-plugin'
import { SessionRegistry } from './session-registry'
import { Upstream, type UpstreamOptions } from './upstream'
import { UserResolver } from './user-resolver'

// The floor under the REST path and the live part: the one HTTP client to the exchange, the resolver
// of a token's user, and the registry of sessions that ended. Both upper parts use these; neither
// reaches into the other.

declare module 'fastify' {
  interface FastifyInstance {
    /** the one HTTP client to the upstream, shared by the REST path and the live part */
    upstream: Upstream
    /** a token's user, through the upstream's user-info call */
    users: UserResolver
    /** which user each token belongs to, and which sessions ended */
    sessions: SessionRegistry
  }
}

export interface UpstreamPluginOptions extends UpstreamOptions {
  /** how long a user-info call made for a socket or a sign-out may take */
  userInfoTimeoutMs: number
}

export const upstreamPlugin = fp<UpstreamPluginOptions>(
  async (app, options) => {
    const upstream = new Upstream(options, app.metrics)
    const sessions = new SessionRegistry({ redis: app.redis, prefix: app.redisPrefix, log: app.log })
    const users = new UserResolver({
      upstream,
      timeoutMs: options.userInfoTimeoutMs,
      onResolved: (key, userId) => sessions.learn(key, userId),
    })
    // an ended token's cached user goes with it, and so does an answer about it still on its way
    sessions.onEnded((keys) => keys.forEach((key) => users.forget(key)))
    app.decorate('upstream', upstream)
    app.decorate('users', users)
    app.decorate('sessions', sessions)
    app.readiness.check('upstream', () => (upstream.reachable ? null : upstream.unreachableReason))
    app.addHook('onClose', async () => {
      await upstream.close()
    })
  },
  { name: 'upstream', dependencies: ['metrics', 'health', 'redis'] },
)
