import type { PlayingKey } from '@tradegate/shared'

// The trade screen's address: `componentName` picks the header tab (2 is the contract tab).

export const COMPONENT_NAMES: Readonly<Record<PlayingKey, string>> = Object.freeze({
  Optional: '0',
  SecondContract: '1',
  Ustandard: '2',
  BBTrading: '3',
  Option: '4',
})

export function tabOfComponentName(componentName: string | null): PlayingKey | null {
  const found = Object.entries(COMPONENT_NAMES).find(([, value]) => value === componentName)
  return found ? (found[0] as PlayingKey) : null
}

/** Trading on a pair; a link that names no product opens spot, the product every pair has. */
export function tradeHref(symbol: string, tab: PlayingKey = 'BBTrading'): string {
  return `/trade?id=1&symbol=${encodeURIComponent(symbol)}&componentName=${COMPONENT_NAMES[tab]}`
}
