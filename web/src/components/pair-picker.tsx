import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../lib/i18n'
import { ChevronIcon, SearchIcon } from './icons'
import { useAllTickers } from '../lib/live/stream-hooks'
import { useCoinList } from '../lib/settings'
import { useFormatters } from '../lib/use-formatters'
import { buildRows, filterRows, type ListedPair } from '../lib/market-rows'
import { focusElement } from '../lib/focus'
import { ChangePercent } from './change-percent'

/**
 * The trading pair as a button; it opens a searchable list of the tab's pairs with last price and
 * change, in the combobox pattern: the search box keeps focus, the arrow keys move through the list,
 * Enter chooses, Escape closes; focus goes back to the button either way.
 */
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
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) focusElement(button.current)
  }

  useEffect(() => {
    if (!open) return
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', closeOutside)
    return () => document.removeEventListener('pointerdown', closeOutside)
  }, [open])

  return (
    <div className="pair-picker" ref={root}>
      <button
        ref={button}
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
          onClose={close}
          onPick={(picked) => {
            close(true)
            onPick(picked)
          }}
        />
      )}
    </div>
  )
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  PageDown: (index, count) => Math.min(index + 10, count - 1),
  PageUp: (index) => Math.max(index - 10, 0),
}

function PairList({
  pairs,
  symbol,
  onClose,
  onPick,
}: {
  pairs: readonly ListedPair[]
  symbol: string
  /** `refocus`: focus back to the picker's button (Escape), not where the user went (Tab) */
  onClose: (refocus: boolean) => void
  onPick: (symbol: string) => void
}) {
  const { t } = useTranslation()
  const tickers = useAllTickers()
  const coinList = useCoinList()
  const { price } = useFormatters()
  const listId = useId()
  const [text, setText] = useState('')
  const rows = filterRows(buildRows(pairs, coinList?.coinList ?? [], tickers), text)
  // the highlighted row: the current pair when the list opens, the first match once the user types
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      rows.findIndex((row) => row.symbol === symbol),
    ),
  )
  const shown = Math.min(active, rows.length - 1)
  const optionId = (index: number) => `${listId}-${index}`
  useEffect(() => {
    document.getElementById(optionId(shown))?.scrollIntoView({ block: 'nearest' })
  })
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = MOVES[event.key]
    if (move && rows.length > 0) {
      event.preventDefault()
      setActive(move(shown, rows.length))
    } else if (event.key === 'Enter') {
      event.preventDefault()
      const row = rows[shown]
      if (row) onPick(row.symbol)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose(true)
    } else if (event.key === 'Tab') onClose(false)
  }
  return (
    <div className="pair-popover" data-testid="pair-list">
      <label className="pair-search">
        <SearchIcon />
        <input
          type="search"
          role="combobox"
          autoFocus
          value={text}
          placeholder={t('desk.searchPair')}
          aria-label={t('desk.searchPair')}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={rows.length > 0 ? optionId(shown) : undefined}
          onChange={(event) => {
            setText(event.target.value)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
          data-testid="pair-search"
        />
      </label>
      <ul role="listbox" id={listId} aria-label={t('trade.pair')}>
        {rows.map((row, index) => (
          <li
            key={row.symbol}
            id={optionId(index)}
            role="option"
            aria-selected={index === shown}
            data-current={row.symbol === symbol || undefined}
            onClick={() => onPick(row.symbol)}
            data-symbol={row.symbol}
          >
            <span>
              <strong>{row.name}</strong>
              <span className="muted">/{row.quote}</span>
            </span>
            <span className="num">{price(row.price)}</span>
            <ChangePercent change={row.change} />
          </li>
        ))}
      </ul>
      {rows.length === 0 && <p className="muted empty-line">{t('desk.noPairs')}</p>}
    </div>
  )
}
