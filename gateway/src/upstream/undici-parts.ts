import { createRequire } from 'node:module'
import type { Pool as PoolType, RetryAgent as RetryAgentType } from 'undici'

// undici's pool and retry agent by their own files: the package's index loads fetch, WebSocket, the cache
// and every other dispatcher too, about 3 MiB of code and source text an idle gateway would hold unused.
// The package has no `exports` map, so these paths are public in the sense Node resolves them; the
// upstream tests run against them.

const require = createRequire(import.meta.url)

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof PoolType
export type Pool = PoolType
export const RetryAgent = require('undici/lib/dispatcher/retry-agent.js') as typeof RetryAgentType
