import { timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import { errorBody } from './errors'

// Operator calls, present only when ADMIN_TOKEN is set and answered only to a request carrying it.

const ADMIN_TOKEN_HEADER = 'x-admin-token'

/** Compares in constant time, so a wrong token reveals nothing about the right one. */
export function sameToken(given: string, expected: Buffer): boolean {
  const candidate = Buffer.from(given)
  return candidate.length === expected.length && timingSafeEqual(candidate, expected)
}

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
