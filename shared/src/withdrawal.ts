import { Decimal } from 'decimal.js'
import { toDecimal } from './format'

// Withdrawal rules both ends apply: what an address looks like on each network, which networks need a
// memo or tag besides it, and what a withdrawal costs. The client checks a form with them, the gateway
// refuses a request that breaks them (the call table carries them), and the sandbox charges by them.

export interface MemoRule {
  /** what the network calls it: a memo (text) or a destination tag (digits) */
  kind: 'memo' | 'tag'
  pattern: string
  /** true where an exchange's deposit address is shared and the tag tells whose deposit it is */
  required: boolean
}

export interface NetworkRule {
  /** every address on the network matches it */
  address: string
  /** a short, valid-looking sample the address field shows as its placeholder */
  example: string
  memo?: MemoRule
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]'

/** Address formats per network; a network not listed here is held to the general address pattern. */
export const NETWORK_RULES: Readonly<Record<string, NetworkRule>> = Object.freeze({
  TRC20: { address: `^T${BASE58}{33}$`, example: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
  ERC20: { address: '^0x[0-9a-fA-F]{40}$', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  BEP20: { address: '^0x[0-9a-fA-F]{40}$', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  // bech32 (bc1…, lowercase, no 1, b, i or o after the prefix) or legacy base58 (1… and 3…)
  BTC: {
    address: `^(?:bc1[02-9ac-hj-np-z]{11,71}|[13]${BASE58}{25,34})$`,
    example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  },
  XRP: {
    address: `^r${BASE58}{24,34}$`,
    example: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
    memo: { kind: 'tag', pattern: '^[0-9]{1,10}$', required: true },
  },
  XLM: {
    address: '^G[A-Z2-7]{55}$',
    example: 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A',
    memo: { kind: 'memo', pattern: '^[A-Za-z0-9]{1,28}$', required: false },
  },
})

/** The general pattern of an address on a network this table does not list. */
export const ANY_ADDRESS_PATTERN = '^[A-Za-z0-9]{16,100}$'

export function networkRule(network: string | undefined): NetworkRule | undefined {
  return network ? NETWORK_RULES[network] : undefined
}

export type AddressProblem = 'addressNotForNetwork' | 'memoRequired' | 'badMemo' | 'memoNotUsed'

/** What is wrong with an address (and memo) for the network; null when it may be sent. */
export function checkAddress(network: string | undefined, address: string, memo = ''): AddressProblem | null {
  const rule = networkRule(network)
  if (!new RegExp(rule?.address ?? ANY_ADDRESS_PATTERN).test(address)) return 'addressNotForNetwork'
  if (!rule?.memo) return memo ? 'memoNotUsed' : null
  if (!memo) return rule.memo.required ? 'memoRequired' : null
  return new RegExp(rule.memo.pattern).test(memo) ? null : 'badMemo'
}

/**
 * The fee of a withdrawal: `ratio` percent of the amount, cut down to the coin's `places`, and nothing
 * while a free withdrawal is left today. The amount received is the amount less the fee.
 */
export function withdrawalFee(amount: unknown, ratio: unknown, freeLeft: number, places: number): Decimal {
  if (freeLeft > 0) return toDecimal(0)
  return toDecimal(amount).times(toDecimal(ratio)).dividedBy(100).toDecimalPlaces(places, Decimal.ROUND_DOWN)
}
