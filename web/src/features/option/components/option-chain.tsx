import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { toDecimal, type OptionChain, type OptionExpiry, type OptionKind } from '@tradegate/shared'
import { formatDateTime } from '../../../lib/intl'
import { useTimeZone } from '../../../lib/time-zone'
import { useFormatters } from '../../../lib/use-formatters'
import { formatTimeLeft } from '../lib/option-math'
import { TabList } from '../../../components/tab-list'
import type { OptionPick } from '../lib/chain-types'
import { ChainTable } from './chain-table'
import { chainLayout } from './chain-columns'
import { useWidth } from '../lib/use-width'

/**
 * The chain of one expiry behind its expiry tabs, with the price, the expiry and the implied volatility
 * every mark is priced at. A chain with no room for both sides (a phone) shows one behind a switch.
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
  const timeZone = useTimeZone().zoneId
  const [side, setSide] = useState<OptionKind>('call')
  const [measure, width] = useWidth<HTMLElement>()
  const layout = chainLayout(width, side)
  const narrow = layout.sides.length === 1
  return (
    <section
      ref={measure}
      className="panel option-chain"
      aria-label={t('options.chain')}
      data-layout={narrow ? 'narrow' : 'both'}
    >
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
      <ChainHead
        chain={chain}
        expiresAt={expiry.expiresAt}
        spot={spot}
        side={narrow ? side : null}
        onSide={setSide}
      />
      <ChainTable
        chain={chain}
        expiry={expiry}
        spot={spot}
        now={now}
        picked={picked}
        onPick={onPick}
        layout={layout}
      />
    </section>
  )
}

function ChainHead({
  chain,
  expiresAt,
  spot,
  side,
  onSide,
}: {
  chain: OptionChain
  expiresAt: number
  spot: string | undefined
  /** the side shown where only one fits; null where both are */
  side: OptionKind | null
  onSide: (side: OptionKind) => void
}) {
  const { t } = useTranslation()
  const { price, percent, dateTime } = useFormatters()
  return (
    <div className="option-chain-head">
      <p className="muted option-chain-facts">
        <span>
          {t('option.lastPrice')}{' '}
          <strong className="num" data-testid="chain-spot">
            {spot ? price(spot) : '--'}
          </strong>
        </span>
        <span>
          {t('options.expires')} <span className="phrase">{dateTime(expiresAt)}</span>
        </span>
        <span>
          {t('options.markIv')}{' '}
          <span className="num" data-testid="chain-mark-iv">
            {percent(toDecimal(chain.volatility).times(100))}%
          </span>
        </span>
      </p>
      {side && (
        <div className="segmented option-side-switch" role="group" aria-label={t('options.side')}>
          {(['call', 'put'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              aria-pressed={side === kind}
              onClick={() => onSide(kind)}
              data-choice={kind}
            >
              {t(`options.${kind}s`)}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
