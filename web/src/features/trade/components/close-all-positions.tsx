import { useRef, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { Position } from '@tradegate/shared'
import { stopPosition } from '../api/stop-position'
import { findPositionClose } from '../api/find-trade-actions'
import { submitOnce } from '../../../lib/submit'
import { closedResult } from './position-history'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useFocusOnMount } from '../../../lib/focus'

interface Outcome {
  closed: Position[]
  /** positions a take-profit, stop-loss or liquidation closed before the user's close could */
  closedFirst: ClosedFirst[]
  failed: number
}

interface ClosedFirst {
  position: Position
  /** the i18n key saying what closed it */
  instead: string
}

/**
 * Closes one position at market through the outcome flow: the closed part as answered, or, when the
 * answer was lost and the lookup finds the position closed, the row the history now holds; or what
 * closed it first. Null when it did not close (or could not be told).
 */
async function closeAtMarket(position: Position): Promise<Position | ClosedFirst | null> {
  let closed: Position | null = null
  const outcome = await submitOnce(
    async (signal) => {
      closed = await stopPosition(position.id, {}, { signal })
    },
    { money: true, lookup: (sentAt) => findPositionClose(position, false, sentAt) },
    () => undefined,
  )
  if (outcome.kind === 'done') return closed
  if (outcome.kind !== 'checked') return null
  if (outcome.instead) return { position, instead: outcome.instead }
  return outcome.phase === 'wentThrough' ? position : null
}

/** Closes every open position at market after the user confirms, then says what closed and for how much. */
export function CloseAllPositions({
  positions,
  onDone,
}: {
  positions: readonly Position[]
  onDone: () => void
}) {
  const { t } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const run = async () => {
    setBusy(true)
    const results = await Promise.all(positions.map(closeAtMarket))
    const closed = results.filter((result): result is Position => result !== null && !('instead' in result))
    const closedFirst = results.filter(
      (result): result is ClosedFirst => result !== null && 'instead' in result,
    )
    setOutcome({ closed, closedFirst, failed: results.length - closed.length - closedFirst.length })
    setBusy(false)
    setConfirming(false)
    onDone()
  }
  return (
    <>
      {positions.length > 0 && (
        <button
          type="button"
          className="button button-small"
          aria-haspopup="dialog"
          onClick={() => setConfirming(true)}
          data-testid="close-all"
        >
          {t('positions.closeAll')}
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          label={t('positions.closeAll')}
          question={t('positions.closeAllQuestion', { number: positions.length })}
          busy={busy}
          onConfirm={() => void run()}
          onBack={() => setConfirming(false)}
          testId="close-all-confirm"
        />
      )}
      {outcome && <CloseAllSummary outcome={outcome} onDismiss={() => setOutcome(null)} />}
    </>
  )
}

function CloseAllSummary({ outcome, onDismiss }: { outcome: Outcome; onDismiss: () => void }) {
  const { t } = useTranslation()
  // the outcome of the user's own action takes focus, as every action's does (lib/toast showOutcome)
  const summary = useRef<HTMLDivElement>(null)
  useFocusOnMount(summary)
  return (
    <div className="close-all-summary" role="status" data-testid="close-all-summary" ref={summary}>
      <strong>{t('positions.closedSummary', { number: outcome.closed.length })}</strong>
      {outcome.failed > 0 && (
        <span className="down">{t('positions.notClosed', { number: outcome.failed })}</span>
      )}
      <ul>
        {outcome.closed.map((position) => {
          const { realized } = closedResult(position)
          return (
            <li key={position.id} className="num">
              {position.symbol.toUpperCase().replace(/USDT$/, '')} {t(`trade.${position.direction}`)}{' '}
              {position.shares} · {t('positions.realizedPnl')}{' '}
              <span className={realized.startsWith('-') ? 'down' : 'up'}>{realized} USDT</span>
            </li>
          )
        })}
        {outcome.closedFirst.map(({ position, instead }) => (
          <li key={position.id} data-testid="closed-first">
            {position.symbol.toUpperCase().replace(/USDT$/, '')} {t(`trade.${position.direction}`)}{' '}
            {position.shares} · {t(instead)}
          </li>
        ))}
      </ul>
      <button type="button" className="button button-small" onClick={onDismiss}>
        {t('common.close')}
      </button>
    </div>
  )
}
