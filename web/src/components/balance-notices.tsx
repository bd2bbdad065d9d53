import { useTranslation } from '../lib/i18n'

// What a screen says about the balances it shows: that they may be out of date. A deposit arriving is
// announced with every other event of the user's (notice-announcer.tsx).

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
