import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { ChevronIcon, SwapIcon } from '../../../components/icons'
import { ExchangePairs } from './exchange-pairs'

/** The pair being exchanged; opens the searchable pair list, and swaps the two coins in one tap. */
export function ExchangePairButton({
  from,
  to,
  onPick,
}: {
  from: string
  to: string
  onPick: (pair: { from: string; to: string }) => void
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <div className="card form">
      <div className="exchange-pair">
        <button
          type="button"
          className="button exchange-pair-toggle"
          aria-expanded={open}
          aria-label={`${t('exchange.pairs')}: ${from.toUpperCase()} → ${to.toUpperCase()}`}
          onClick={() => setOpen(!open)}
          data-testid="exchange-pair"
          data-pair={`${from}-${to}`}
        >
          <strong dir="ltr">
            {from.toUpperCase()} → {to.toUpperCase()}
          </strong>
          <ChevronIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('exchange.swap')}
          onClick={() => onPick({ from: to, to: from })}
          data-testid="exchange-swap"
        >
          <SwapIcon />
        </button>
      </div>
      {open && (
        <ExchangePairs
          current={{ from, to }}
          onPick={(pair) => {
            setOpen(false)
            onPick(pair)
          }}
        />
      )}
    </div>
  )
}
