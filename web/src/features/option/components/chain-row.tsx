import type { ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { Decimal } from 'decimal.js'
import type { OptionKind, OptionQuote } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { bidOf, greekText, type Greek, thetaPerUnit } from '../lib/option-math'
import { drawn, type ChainLayout, type Column } from './chain-columns'
import type { ChainRowData, OptionPick } from '../lib/chain-types'

/**
 * One strike: each side's bid, its ask (the premium a buyer pays, pressed to pick it) over the
 * volatility it is priced at, and its greeks, and between them the strike, pressed to show or hide its greeks.
 */
export function ChainRow(props: {
  row: ChainRowData
  layout: ChainLayout
  expiresAt: number
  msLeft: number
  /** the volatility every strike's mark is priced at, as a percent text */
  ivText: string
  atm: boolean
  picked: OptionPick | null
  onPick: (pick: OptionPick) => void
  expanded: boolean
  onToggle: () => void
  detailId: string
}) {
  const { row, expiresAt, msLeft, ivText, atm, picked, onPick } = props
  const { t } = useTranslation()
  const { cash, decimal, strike } = useFormatters()
  const greek = (value: Decimal, name: Greek) => decimal(greekText(value, name))

  const cell = (kind: OptionKind, quote: OptionQuote | null, column: Column): ReactNode => {
    if (column === 'ask') {
      const isPicked = picked?.kind === kind && picked.strike === row.strike && picked.expiresAt === expiresAt
      return (
        <td key={column} className={`num chain-${kind}`} data-side={kind}>
          <button
            type="button"
            className="chain-quote"
            aria-pressed={isPicked}
            disabled={!quote}
            onClick={() => onPick({ expiresAt, strike: row.strike, kind })}
            data-testid="chain-quote"
            data-kind={kind}
            data-strike={row.strike}
          >
            {quote ? cash(quote.premium) : '--'}
          </button>
          <small className="chain-iv muted" data-testid="chain-iv">
            {quote ? ivText : '--'}
          </small>
        </td>
      )
    }
    const text = !quote
      ? '--'
      : column === 'bid'
        ? cash(bidOf(quote))
        : column === 'theta'
          ? greek(thetaPerUnit(quote.theta, msLeft).value, 'theta')
          : greek(quote[column], column)
    return (
      <td
        key={column}
        className={`num chain-${kind}${column === 'bid' ? '' : ' muted'}`}
        data-side={kind}
        data-testid={`chain-${column}`}
      >
        {text}
      </td>
    )
  }

  return (
    <tr className={atm ? 'chain-atm' : undefined} data-strike={row.strike} data-atm={atm}>
      {props.layout.sides.includes('call') &&
        drawn('call', props.layout).map((column) => cell('call', row.call, column))}
      <th scope="row" className="chain-strike">
        <button
          type="button"
          className="chain-strike-toggle"
          aria-expanded={props.expanded}
          aria-controls={props.expanded ? props.detailId : undefined}
          aria-label={t('options.greeksAt', { strike: strike(row.strike) })}
          onClick={props.onToggle}
          data-testid="chain-strike-toggle"
        >
          <span className="num">{strike(row.strike)}</span>
          <span className="chain-strike-caret" aria-hidden="true">
            {props.expanded ? '▴' : '▾'}
          </span>
        </button>
        {atm && <span className="atm-tag">{t('options.atTheMoney')}</span>}
      </th>
      {props.layout.sides.includes('put') &&
        drawn('put', props.layout).map((column) => cell('put', row.put, column))}
    </tr>
  )
}
