import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { OptionChain, OptionExpiry, OptionKind, OptionQuote } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { atTheMoney, bidOf, greekText, quoteOf } from '../lib/option-math'

export interface OptionPick {
  expiresAt: number
  strike: string
  kind: OptionKind
}

const GREEKS = ['delta', 'gamma', 'theta', 'vega'] as const
/** Greeks a phone leaves to the ticket, so one side of the chain fits its width. */
const MINOR: readonly Column[] = ['gamma', 'theta', 'vega']
/** Columns of one side, read from the strike outwards: bid and ask beside it, then the greeks. */
const COLUMNS = ['bid', 'ask', ...GREEKS] as const
type Column = (typeof COLUMNS)[number]

/** The columns of a side in the order they are drawn: calls mirror puts around the strike. */
function drawn(kind: OptionKind): readonly Column[] {
  return kind === 'call' ? [...COLUMNS].reverse() : COLUMNS
}

/**
 * Strikes by row, calls on the inline start and puts on the inline end, each with its bid, its ask
 * (the premium a buyer pays, pressed to pick it) and its greeks; the at-the-money row is marked.
 */
export function ChainTable(props: {
  chain: OptionChain
  expiry: OptionExpiry
  spot: string | undefined
  now: number
  picked: OptionPick | null
  onPick: (pick: OptionPick) => void
}) {
  const { chain, expiry, spot, now, picked, onPick } = props
  const { t } = useTranslation()
  const { price, amount, decimal } = useFormatters()
  const atm = atTheMoney(expiry.strikes, spot)
  // whole seconds: premiums follow the price every tick, time decay once a second is plenty
  const second = Math.floor(now / 1000) * 1000
  const rows = useMemo(
    () =>
      expiry.strikes.map((strike) => ({
        strike,
        call: quoteOf({ kind: 'call', strike, expiresAt: expiry.expiresAt }, spot, chain, second),
        put: quoteOf({ kind: 'put', strike, expiresAt: expiry.expiresAt }, spot, chain, second),
      })),
    [expiry, spot, chain, second],
  )

  const cell = (kind: OptionKind, strike: string, quote: OptionQuote | null, column: Column): ReactNode => {
    if (column === 'ask') {
      const isPicked =
        picked?.kind === kind && picked.strike === strike && picked.expiresAt === expiry.expiresAt
      return (
        <td key={column} className={`num chain-${kind}`} data-side={kind}>
          <button
            type="button"
            className="chain-quote"
            aria-pressed={isPicked}
            disabled={!quote}
            onClick={() => onPick({ expiresAt: expiry.expiresAt, strike, kind })}
            data-testid="chain-quote"
            data-kind={kind}
            data-strike={strike}
          >
            {quote ? amount(quote.premium, 4) : '--'}
          </button>
        </td>
      )
    }
    const text = !quote
      ? '--'
      : column === 'bid'
        ? amount(bidOf(quote), 4)
        : decimal(greekText(quote[column]))
    return (
      <td
        key={column}
        className={`num chain-${kind}${column === 'bid' ? '' : ' muted'}`}
        data-side={kind}
        data-minor={MINOR.includes(column) || undefined}
        data-testid={`chain-${column}`}
      >
        {text}
      </td>
    )
  }

  const heads = (kind: OptionKind) =>
    drawn(kind).map((column) => (
      <th
        key={column}
        className={`num chain-${kind}`}
        data-side={kind}
        data-minor={MINOR.includes(column) || undefined}
      >
        {t(`options.${column}`)}
      </th>
    ))

  return (
    <div className="table-scroll">
      <table className="data-table option-chain-table" data-testid="option-chain">
        <thead>
          <tr className="chain-sides">
            <th colSpan={COLUMNS.length} className="chain-call" data-side="call">
              {t('options.calls')}
            </th>
            <th>
              <span className="visually-hidden">{t('options.strike')}</span>
            </th>
            <th colSpan={COLUMNS.length} className="chain-put" data-side="put">
              {t('options.puts')}
            </th>
          </tr>
          <tr>
            {heads('call')}
            <th className="num chain-strike">{t('options.strike')}</th>
            {heads('put')}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.strike}
              className={row.strike === atm ? 'chain-atm' : undefined}
              data-strike={row.strike}
              data-atm={row.strike === atm}
            >
              {drawn('call').map((column) => cell('call', row.strike, row.call, column))}
              <th scope="row" className="num chain-strike">
                {price(row.strike)}
                {row.strike === atm && <span className="atm-tag">{t('options.atTheMoney')}</span>}
              </th>
              {drawn('put').map((column) => cell('put', row.strike, row.put, column))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
