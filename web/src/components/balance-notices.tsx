import { useEffect, useEffectEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { liveClient } from '../lib/live'
import { useSession } from '../lib/session'
import { showToast } from '../lib/toast'
import { useFormatters } from '../lib/use-formatters'

// What a screen says about the balances it shows: that they may be out of date, and that a deposit arrived.

/** Shown above balances that may be out of date: the live feed is down, or the last fetch failed. */
export function StaleNote({ stale }: { stale: boolean }) {
  const { t } = useTranslation()
  if (!stale) return null
  return (
    <p className="note note-warning" role="status" data-testid="balances-stale">
      {t('balances.stale')}
    </p>
  )
}

/** Long enough to read an amount and a coin, short enough not to stand in the way. */
const DEPOSIT_NOTICE_MS = 5000

/** A short notice on whatever screen is open when a deposit is credited to the signed-in user. */
export function DepositNotice() {
  const { t } = useTranslation()
  const { money } = useFormatters()
  const { token } = useSession()
  // reads the latest texts and formatter when an event comes, so a re-render never resubscribes
  const announce = useEffectEvent((change: string, coin: string) =>
    showToast(
      t('balances.depositArrived', { amount: money(change, coin), coin: coin.toUpperCase() }),
      DEPOSIT_NOTICE_MS,
    ),
  )
  useEffect(() => {
    if (!token) return
    return liveClient().subscribe({ operation: 'subscribe', type: 'OWNCOIN' }, (frame) => {
      if (frame.type !== 'OWNCOIN') return
      const { kind, change, coin } = frame.data
      if (kind !== 'deposit' || typeof change !== 'string' || typeof coin !== 'string') return
      if (!/^[0-9]/.test(change) || /^[0.]+$/.test(change)) return
      announce(change, coin)
    })
  }, [token])
  return null
}
