// Deposit and withdrawal channels are named COIN-NETWORK (USDT-TRC20, XRP-XRP); both screens show one
// of them, chosen the same way.

/** The coin of a channel, lower case: `xrp` for XRP-XRP. */
export function coinOfChannel(name: string): string {
  return (name.split('-')[0] ?? '').toLowerCase()
}

/**
 * The channel a screen shows: the one the user picked, else the first of the coin a link named
 * (`?coin=xrp`, any case), else the first.
 */
export function shownChannel<T>(
  rows: readonly T[],
  nameOf: (row: T) => string,
  picked: string | null,
  linkedCoin: string | null | undefined,
): T | undefined {
  const coin = linkedCoin?.toLowerCase()
  return (
    rows.find((row) => nameOf(row) === picked) ??
    rows.find((row) => coinOfChannel(nameOf(row)) === coin) ??
    rows[0]
  )
}
