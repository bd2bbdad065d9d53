import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { OptionChain, OptionExpiry, OptionKind } from '@tradegate/shared'
import { formatDateTime } from '../../../lib/intl'
import { useSettings } from '../../../lib/settings'
import { useFormatters } from '../../../lib/use-formatters'
import { atTheMoney, formatTimeLeft, quoteOf } from '../lib/option-math'
import { TabList } from '../../../components/tab-list'

export interface OptionPick {
  expiresAt: number
  strike: string
  kind: OptionKind
}

/**
 * The chain of one expiry: strikes by row, calls left and puts right, each with its live premium and
 * delta; the at-the-money row is marked. Phones show one side at a time behind a switch.
 */
export function OptionChainPanel({
  chain,
  expiry,
  spot,
  now,
  picked,
  onExpiry,
  onPick,
}: {
  chain: OptionChain
  expiry: OptionExpiry
  spot: string | undefined
  now: number
  picked: OptionPick | null
  onExpiry: (expiresAt: number) => void
  onPick: (pick: OptionPick) => void
}) {
  const { t } = useTranslation()
  const { price, amount, dateTime } = useFormatters()
  const timeZone = useSettings().DEFAULT_TIME_ZONE.zoneId
  const [side, setSide] = useState<OptionKind>('call')
  const atm = atTheMoney(expiry.strikes, spot)
  // whole seconds: premiums follow the price every tick, time decay once a second is plenty
  const second = Math.floor(now / 1000) * 1000
  const rows = useMemo(
    () =>
      expiry.strikes.map((strike) => ({
        strike,
        call: quoteOf('call', strike, expiry.expiresAt, spot, chain, second),
        put: quoteOf('put', strike, expiry.expiresAt, spot, chain, second),
      })),
    [expiry, spot, chain, second],
  )

  const quoteCells = (kind: OptionKind, strike: string, quote: (typeof rows)[number]['call']) => {
    const isPicked =
      picked?.kind === kind && picked.strike === strike && picked.expiresAt === expiry.expiresAt
    const premium = (
      <td key="premium" className={`num chain-${kind}`} data-side={kind}>
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
    const delta = (
      <td key="delta" className={`num muted chain-${kind}`} data-side={kind} data-testid="chain-delta">
        {quote ? amount(quote.delta, 3) : '--'}
      </td>
    )
    // calls read outward from the strike column: delta, premium | strike | premium, delta
    return kind === 'call' ? [delta, premium] : [premium, delta]
  }

  return (
    <section className="panel option-chain" aria-label={t('options.chain')} data-show-side={side}>
      <TabList
        className="tab-strip option-expiries"
        itemClassName="tab-strip-item"
        label={t('options.expiry')}
        items={chain.expiries.map((row) => ({
          value: row.expiresAt,
          label: (
            <>
              <span className="num">{formatDateTime(row.expiresAt, timeZone, 'MM/DD HH:mm')}</span>
              <small className="num muted">{formatTimeLeft(row.expiresAt - now)}</small>
            </>
          ),
          data: { 'data-testid': 'expiry-tab', 'data-expires-at': row.expiresAt },
        }))}
        value={expiry.expiresAt}
        onChange={onExpiry}
      />
      <div className="option-chain-head">
        <p className="muted option-chain-facts">
          <span>
            {t('option.lastPrice')}{' '}
            <strong className="num" data-testid="chain-spot">
              {spot ? price(spot) : '--'}
            </strong>
          </span>
          <span>
            {t('options.expires')} <span className="num">{dateTime(expiry.expiresAt)}</span>
          </span>
          <span>
            {t('options.volatility')}{' '}
            <span className="num">{amount(Number(chain.volatility) * 100, 2)}%</span>
          </span>
        </p>
        <div className="segmented option-side-switch" role="group" aria-label={t('options.side')}>
          {(['call', 'put'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              aria-pressed={side === kind}
              onClick={() => setSide(kind)}
              data-choice={kind}
            >
              {t(`options.${kind}s`)}
            </button>
          ))}
        </div>
      </div>
      <div className="table-scroll">
        <table className="data-table option-chain-table" data-testid="option-chain">
          <thead>
            <tr className="chain-sides">
              <th colSpan={2} className="chain-call" data-side="call">
                {t('options.calls')}
              </th>
              <th>
                <span className="visually-hidden">{t('options.strike')}</span>
              </th>
              <th colSpan={2} className="chain-put" data-side="put">
                {t('options.puts')}
              </th>
            </tr>
            <tr>
              <th className="num chain-call" data-side="call">
                {t('options.delta')}
              </th>
              <th className="num chain-call" data-side="call">
                {t('options.premium')}
              </th>
              <th className="num chain-strike">{t('options.strike')}</th>
              <th className="num chain-put" data-side="put">
                {t('options.premium')}
              </th>
              <th className="num chain-put" data-side="put">
                {t('options.delta')}
              </th>
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
                {quoteCells('call', row.strike, row.call)}
                <th scope="row" className="num chain-strike">
                  {price(row.strike)}
                  {row.strike === atm && <span className="atm-tag">{t('options.atTheMoney')}</span>}
                </th>
                {quoteCells('put', row.strike, row.put)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
