import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { addToWatchlist } from '../lib/api/add-to-watchlist'
import { useWatchlist } from '../lib/api/get-watchlist'
import { removeFromWatchlist } from '../lib/api/remove-from-watchlist'

/** Adds a pair to the watchlist or removes it; the shared watchlist key is refreshed either way. */
export function WatchButton({ symbol, label }: { symbol: string; label: string }) {
  const { t } = useTranslation()
  const watchlist = useWatchlist()
  const [busy, setBusy] = useState(false)
  const entry = watchlist.data?.find((coin) => coin.symbol === symbol)
  const watched = entry !== undefined
  const toggle = async () => {
    setBusy(true)
    try {
      if (entry) {
        await removeFromWatchlist(entry.id)
        await watchlist.mutate((list) => list?.filter((coin) => coin.id !== entry.id), { revalidate: true })
      } else {
        const added = await addToWatchlist(symbol)
        await watchlist.mutate((list) => [...(list ?? []), added], { revalidate: true })
      }
    } catch {
      // the HTTP client has shown the message
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      className={`watch-button${watched ? ' watched' : ''}`}
      onClick={() => void toggle()}
      disabled={busy || watchlist.data === undefined}
      aria-pressed={watched}
      aria-label={t(watched ? 'watchlist.remove' : 'watchlist.add', { pair: label })}
      data-testid={`watch-${symbol}`}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
          fill={watched ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  )
}
