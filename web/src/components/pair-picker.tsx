import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronIcon, SearchIcon } from './icons'
import { useAllTickers } from '../lib/live/stream-hooks'
import { useCoinList } from '../lib/settings'
import { useFormatters } from '../lib/use-formatters'
import { buildRows, filterRows, type ListedPair } from '../lib/market-rows'
import { ChangePercent } from './change-percent'

/** The trading pair as a button; it opens a searchable list of the tab's pairs with last price and change. */
export function PairPicker({
  pairs,
  symbol,
  name,
  onPick,
}: {
  pairs: readonly ListedPair[]
  symbol: string
  name: string
  onPick: (symbol: string) => void
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const root = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', closeOutside)
    document.addEventListener('keydown', closeOnEscape)
    return () => {
      document.removeEventListener('pointerdown', closeOutside)
      document.removeEventListener('keydown', closeOnEscape)
    }
  }, [open])

  return (
    <div className="pair-picker" ref={root}>
      <button
        type="button"
        className="pair-picker-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`${t('trade.pair')}: ${name}`}
        onClick={() => setOpen(!open)}
        data-testid="pair-picker"
        data-symbol={symbol}
      >
        <strong>{name}</strong>
        <span className="pair-picker-chevron" aria-hidden="true">
          <ChevronIcon />
        </span>
      </button>
      {open && (
        <PairList
          pairs={pairs}
          symbol={symbol}
          text={text}
          onText={setText}
          onPick={(picked) => {
            setOpen(false)
            setText('')
            onPick(picked)
          }}
        />
      )}
    </div>
  )
}

function PairList({
  pairs,
  symbol,
  text,
  onText,
  onPick,
}: {
  pairs: readonly ListedPair[]
  symbol: string
  text: string
  onText: (text: string) => void
  onPick: (symbol: string) => void
}) {
  const { t } = useTranslation()
  const tickers = useAllTickers()
  const coinList = useCoinList()
  const { price } = useFormatters()
  const rows = filterRows(buildRows(pairs, coinList?.coinList ?? [], tickers), text)
  return (
    <div className="pair-popover" data-testid="pair-list">
      <label className="pair-search">
        <SearchIcon />
        <input
          type="search"
          autoFocus
          value={text}
          placeholder={t('desk.searchPair')}
          aria-label={t('desk.searchPair')}
          onChange={(event) => onText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && rows[0]) onPick(rows[0].symbol)
          }}
          data-testid="pair-search"
        />
      </label>
      <ul role="listbox" aria-label={t('trade.pair')}>
        {rows.map((row) => (
          <li key={row.symbol} role="option" aria-selected={row.symbol === symbol}>
            <button type="button" onClick={() => onPick(row.symbol)} data-symbol={row.symbol}>
              <span>
                <strong>{row.name}</strong>
                <span className="muted">/{row.quote}</span>
              </span>
              <span className="num">{price(row.price)}</span>
              <ChangePercent change={row.change} />
            </button>
          </li>
        ))}
      </ul>
      {rows.length === 0 && <p className="muted empty-line">{t('desk.noPairs')}</p>}
    </div>
  )
}
