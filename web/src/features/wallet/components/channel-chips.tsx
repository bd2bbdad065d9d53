import { useState } from 'react'
import { useSearchParams } from 'wouter'
import { shownChannel } from '../lib/channels'

/**
 * The channel a deposit or withdrawal screen shows, and how the user picks another: a link may name
 * the coin (`?coin=xrp`), whose first network is shown until the user picks.
 */
export function useShownChannel<T>(
  rows: readonly T[] | undefined,
  nameOf: (row: T) => string,
): [T | undefined, (name: string) => void] {
  const [picked, pick] = useState<string | null>(null)
  const linkedCoin = useSearchParams()[0].get('coin')
  return [shownChannel(rows ?? [], nameOf, picked, linkedCoin), pick]
}

interface ChannelChipsProps {
  names: readonly string[]
  shown: string | undefined
  label: string
  onPick: (name: string) => void
}

/** One chip per channel in a row that scrolls sideways; the shown one is scrolled into view. */
export function ChannelChips({ names, shown, label, onPick }: ChannelChipsProps) {
  return (
    <div className="chips" role="group" aria-label={label}>
      {names.map((name) => (
        <button
          key={name}
          type="button"
          aria-pressed={name === shown}
          onClick={() => onPick(name)}
          data-coin={name}
          // a channel a link chose may sit past the row's edge on a phone
          ref={
            name === shown
              ? (chip) => chip?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
              : undefined
          }
        >
          {name}
        </button>
      ))}
    </div>
  )
}
