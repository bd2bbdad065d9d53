import fp from 'fastify-plugin'
import { errorBody } from '../lib/errors'
import { sameToken } from '../lib/same-token'

// Operator calls, present only when ADMIN_TOKEN is set and answered only to a request carrying it.

const ADMIN_TOKEN_HEADER = 'x-admin-token'

export const adminPlugin = fp<{ adminToken: string }>(
  async (app, { adminToken }) => {
    if (!adminToken) return
    const expected = Buffer.from(adminToken)
    app.post('/admin/cache/purge', async (request, reply) => {
      const given = request.headers[ADMIN_TOKEN_HEADER]
      if (typeof given !== 'string' || !sameToken(given, expected)) {
        return reply.code(403).send(errorBody(403, 'forbidden'))
      }
      const purged = await app.responseCache.purge()
      request.log.info({ event: 'cache_purged', purged }, 'cache purged')
      return { code: 200, msg: 'ok', data: { purged } }
    })
  },
  { name: 'admin', dependencies: ['api'] },
)
