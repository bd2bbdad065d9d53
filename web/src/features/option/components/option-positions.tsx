import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { add, formatAmount, type OptionPosition } from '@tradegate/shared'
import { useTicker } from '../../../lib/live'
import { useFormatters } from '../../../lib/use-formatters'
import { Figure } from '../../../components/form-bits'
import { useOptionChain } from '../api/get-option-chain'
import type { useOptionPositions } from '../api/get-option-positions'
import { formatTimeLeft, markOf, settledPnl } from '../lib/option-math'
import { SPOT_SAMPLE_MS, useSampled } from '../lib/use-sampled'
import { TabList } from '../../../components/tab-list'

type Status = OptionPosition['status']

/** Open positions with their live mark, P&L and time to expiry; settled ones with what they paid out. */
export function OptionPositions({
  now,
  positions,
}: {
  now: number
  positions: Record<Status, OptionPositionsState>
}) {
  const { t } = useTranslation()
  const [status, setStatus] = useState<Status>('open')
  const rows = positions[status].data?.rows ?? []
  return (
    <section className="panel option-positions" aria-label={t('options.positions')}>
      <TabList
        className="panel-tabs"
        label={t('options.positions')}
        items={(['open', 'settled'] as const).map((tab) => ({
          value: tab,
          label: t(`options.positions_${tab}`),
          data: { 'data-testid': 'positions-tab', 'data-status': tab },
        }))}
        value={status}
        onChange={setStatus}
      />
      {rows.length === 0 ? (
        <p className="muted empty-line">{t(`options.noPositions_${status}`)}</p>
      ) : (
        <div className="option-position-list">
          {rows.map((position) => (
            <PositionCard key={position.id} position={position} now={now} />
          ))}
        </div>
      )}
    </section>
  )
}

export type OptionPositionsState = ReturnType<typeof useOptionPositions>

function PositionCard({ position, now }: { position: OptionPosition; now: number }) {
  const { t } = useTranslation()
  const { price, amount } = useFormatters()
  const ticker = useTicker(position.status === 'open' ? position.symbol : null)
  const chain = useOptionChain(position.status === 'open' ? position.coin : null)
  const open = position.status === 'open'
  const spot = useSampled(ticker?.close, SPOT_SAMPLE_MS)
  const second = Math.floor(now / 1000) * 1000
  const mark = useMemo(
    () => (open ? markOf(position, spot, chain.data, second) : null),
    [open, position, spot, chain.data, second],
  )
  const pnl = open ? mark?.pnl : settledPnl(position)
  // the sign of what is shown, so a loss truncated to zero does not read as red
  const shownPnl = pnl ? formatAmount(pnl, 4) : null
  const tone = shownPnl?.startsWith('-') ? 'down' : 'up'

  return (
    <article
      className="position-card option-position"
      data-testid="option-position"
      data-id={position.id}
      data-status={position.status}
    >
      <header className="position-head">
        <span className={`tag ${position.kind === 'call' ? 'tag-up' : 'tag-down'}`}>
          {t(`options.${position.kind}`)}
        </span>
        <strong>
          {position.coin.toUpperCase()} <span className="num">{price(position.strike)}</span>
        </strong>
        <span className={`position-pnl num ${shownPnl ? tone : ''}`}>
          <span data-testid="position-pnl">
            {shownPnl ? `${tone === 'up' ? '+' : ''}${amount(pnl, 4)}` : '--'}
          </span>{' '}
          USDT
        </span>
      </header>
      <div className="figures two-columns">
        <Figure label={t('options.quantity')}>
          {position.quantity} {position.coin.toUpperCase()}
        </Figure>
        <Figure label={t('options.paid')}>{amount(add(position.cost, position.fee), 4)} USDT</Figure>
        {open ? (
          <>
            <Figure label={t('options.mark')} testId="position-mark">
              {mark ? `${amount(mark.value, 4)} USDT` : '--'}
            </Figure>
            <Figure label={t('options.timeLeft')} testId="position-time-left">
              {position.expiresAt > now ? formatTimeLeft(position.expiresAt - now) : t('options.settling')}
            </Figure>
          </>
        ) : (
          <>
            <Figure label={t('options.settlePrice')}>{price(position.settlePrice)}</Figure>
            <Figure label={t('options.payout')} testId="position-payout">
              {amount(position.payout, 4)} USDT
            </Figure>
          </>
        )}
      </div>
    </article>
  )
}
