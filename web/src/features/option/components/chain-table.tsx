import { Fragment, useId, useMemo, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { toDecimal, type OptionChain, type OptionExpiry, type OptionKind } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'
import { atTheMoney, quoteOf, thetaPerUnit } from '../lib/option-math'
import { drawn, type ChainLayout } from './chain-columns'
import { ChainGreeks } from './chain-greeks'
import { ChainRow } from './chain-row'
import type { OptionPick } from '../lib/chain-types'

/**
 * Strikes by row, calls on the inline start and puts on the inline end of the strike column, each
 * side with its bid, its ask over its implied volatility, and its greeks; the at-the-money row is marked, and a
 * strike opens its greeks under its row.
 */
export function ChainTable(props: {
  chain: OptionChain
  expiry: OptionExpiry
  spot: string | undefined
  now: number
  picked: OptionPick | null
  onPick: (pick: OptionPick) => void
  layout: ChainLayout
}) {
  const { chain, expiry, spot, now, picked, onPick, layout } = props
  const { t } = useTranslation()
  const { percent } = useFormatters()
  const detailId = useId()
  const [opened, setOpened] = useState<string | null>(null)
  const atm = atTheMoney(expiry.strikes, spot)
  // whole seconds: premiums follow the price every tick, time decay once a second is plenty
  const second = Math.floor(now / 1000) * 1000
  const msLeft = expiry.expiresAt - second
  const thetaUnit = thetaPerUnit(toDecimal(0), msLeft).unit
  // the exchange prices every strike at the chain's one volatility, so that is each mark's IV
  // (option-math.test.ts reads it back from every strike's mark)
  const ivText = `${percent(toDecimal(chain.volatility).times(100))}%`
  const rows = useMemo(
    () =>
      expiry.strikes.map((strike) => ({
        strike,
        call: quoteOf({ kind: 'call', strike, expiresAt: expiry.expiresAt }, spot, chain, second),
        put: quoteOf({ kind: 'put', strike, expiresAt: expiry.expiresAt }, spot, chain, second),
      })),
    [expiry, spot, chain, second],
  )

  const shows = (kind: OptionKind) => layout.sides.includes(kind)
  const heads = (kind: OptionKind) =>
    drawn(kind, layout).map((column) => (
      <th key={column} className={`chain-${kind}`} data-side={kind}>
        {column === 'ask' ? (
          <>
            {t('options.ask')}
            <small className="chain-iv">{t('options.iv')}</small>
          </>
        ) : (
          t(column === 'theta' ? `options.thetaPer_${thetaUnit}` : `options.${column}`)
        )}
      </th>
    ))

  return (
    <div className="table-scroll">
      <table className="data-table option-chain-table" data-testid="option-chain">
        <thead>
          <tr className="chain-sides">
            {shows('call') && (
              <th colSpan={layout.columns.length} className="chain-call" data-side="call">
                {t('options.calls')}
              </th>
            )}
            <th>
              <span className="visually-hidden">{t('options.strike')}</span>
            </th>
            {shows('put') && (
              <th colSpan={layout.columns.length} className="chain-put" data-side="put">
                {t('options.puts')}
              </th>
            )}
          </tr>
          <tr>
            {shows('call') && heads('call')}
            <th className="chain-strike">{t('options.strike')}</th>
            {shows('put') && heads('put')}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Fragment key={row.strike}>
              <ChainRow
                row={row}
                layout={layout}
                expiresAt={expiry.expiresAt}
                msLeft={msLeft}
                ivText={ivText}
                atm={row.strike === atm}
                picked={picked}
                onPick={onPick}
                expanded={opened === row.strike}
                onToggle={() => setOpened(opened === row.strike ? null : row.strike)}
                detailId={detailId}
              />
              {opened === row.strike && (
                <ChainGreeks
                  id={detailId}
                  row={row}
                  chain={chain}
                  expiresAt={expiry.expiresAt}
                  spot={spot}
                  now={second}
                  sides={layout.sides}
                  columns={layout.columns.length * layout.sides.length + 1}
                />
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  )
}
