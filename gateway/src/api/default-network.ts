import { checkAddress, type CallDefinition } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'

// A withdrawal that names no network goes to the coin's default one, so its address and memo are held
// to that network's rules exactly as they would be had the client named it (the schema does that part).

/** The coin's default network: the first RECHARGE_SETTING row naming it, as the upstream picks it. */
export function defaultNetworkOf(settingsAnswer: unknown, coin: string): string | undefined {
  const rows = (settingsAnswer as { data?: { RECHARGE_SETTING?: unknown } } | null)?.data?.RECHARGE_SETTING
  if (!Array.isArray(rows)) return undefined
  const wanted = coin.toLowerCase()
  const row = (rows as Array<{ coin?: unknown; chain?: unknown }>).find(
    (entry) => typeof entry?.coin === 'string' && entry.coin.toLowerCase() === wanted,
  )
  return typeof row?.chain === 'string' ? row.chain : undefined
}

/**
 * Throws 400 `badRequest` naming the address or memo when a request without its network field breaks
 * the rules of the coin's default network. Without settings (unreadable) the schema's general address
 * pattern is all that holds, and the upstream checks the rest.
 */
export function checkDefaultNetwork(
  network: NonNullable<CallDefinition['network']>,
  query: Record<string, unknown>,
  settingsAnswer: unknown,
): void {
  if (query[network.field] !== undefined) return
  const { [network.coinField]: coin, address, memo } = query
  if (typeof coin !== 'string' || typeof address !== 'string') return
  const chain = defaultNetworkOf(settingsAnswer, coin)
  if (chain === undefined) return
  const problem = checkAddress(chain, address, typeof memo === 'string' ? memo : '')
  if (problem === null) return
  throw new GatewayError(
    400,
    'badRequest',
    problem === 'addressNotForNetwork' ? 'query.address' : 'query.memo',
  )
}
