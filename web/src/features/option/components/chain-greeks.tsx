import { useMemo } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { Decimal } from 'decimal.js'
import { type OptionChain, type OptionKind } from '@tradegate/shared'
import { Figure } from '../../../components/form-bits'
import { useFormatters } from '../../../lib/use-formatters'
import { greekText, type Greek, impliedOf, thetaPerUnit } from '../lib/option-math'
import type { ChainRowData } from '../lib/chain-types'

/**
 * A strike's greeks under its row, opened from the strike: for each side delta, gamma, theta per the
 * unit that suits the time left, vega, and the implied volatilities of its bid and ask, of the sides
 * the chain shows.
 */
export function ChainGreeks(props: {
  id: string
  row: ChainRowData
  chain: OptionChain
  expiresAt: number
  spot: string | undefined
  now: number
  sides: readonly OptionKind[]
  columns: number
}) {
  const { id, row, chain, expiresAt, spot, now, sides } = props
  const { t } = useTranslation()
  const { percent: percentText, decimal, strike } = useFormatters()
  const msLeft = expiresAt - now
  // two searches a side for this one strike; the chain's other rows show their mark's volatility only
  const implied = useMemo(
    () =>
      Object.fromEntries(
        sides.map((kind) => [kind, impliedOf({ kind, strike: row.strike, expiresAt }, spot, chain, now)]),
      ),
    [sides, row.strike, expiresAt, spot, chain, now],
  )
  const greek = (value: Decimal | undefined, name: Greek) => (value ? decimal(greekText(value, name)) : '--')
  const percent = (value: Decimal | null | undefined) => (value ? `${percentText(value.times(100))}%` : '--')
  return (
    <tr className="chain-detail" id={id} data-testid="chain-greeks" data-strike={row.strike}>
      <td colSpan={props.columns}>
        <div
          className="chain-greeks"
          role="group"
          aria-label={t('options.greeksAt', { strike: strike(row.strike) })}
        >
          {sides.map((kind) => {
            const quote = row[kind]
            const theta = quote ? thetaPerUnit(quote.theta, msLeft) : null
            return (
              <div key={kind} className="figures two-columns" data-testid={`greeks-${kind}`}>
                <p className={`chain-greeks-side chain-${kind}`}>{t(`options.${kind}s`)}</p>
                <Figure label={t('options.delta')} testId="greek-delta">
                  {greek(quote?.delta, 'delta')}
                </Figure>
                <Figure label={t('options.gamma')} testId="greek-gamma">
                  {greek(quote?.gamma, 'gamma')}
                </Figure>
                <Figure label={t(`options.thetaPer_${theta?.unit ?? 'day'}`)} testId="greek-theta">
                  {greek(theta?.value, 'theta')}
                </Figure>
                <Figure label={t('options.vega')} testId="greek-vega">
                  {greek(quote?.vega, 'vega')}
                </Figure>
                <Figure label={t('options.bidIv')} testId="greek-bid-iv">
                  {percent(implied[kind]?.bid)}
                </Figure>
                <Figure label={t('options.askIv')} testId="greek-ask-iv">
                  {percent(implied[kind]?.ask)}
                </Figure>
              </div>
            )
          })}
        </div>
      </td>
    </tr>
  )
}
