import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { nameHasWord, searchKey } from '@tradegate/shared'
import { ChevronIcon } from '../../../components/icons'
import { DataState } from '../../../components/data-state'
import { NoData } from '../../../components/no-data'
import { useExchangePairs } from '../api/get-exchange-pairs'

export interface ExchangePair {
  id: number
  from: string
  to: string
}

/**
 * Whether a pair matches the search: a coin's code begins with it ("eth", or "usdt eth" typed
 * together), or a word of a coin's name does ("ether" finds Ethereum, not Tether).
 */
export function pairMatches(pair: ExchangePair, text: string): boolean {
  const key = searchKey(text)
  if (!key) return true
  const codes = [pair.from, pair.to, `${pair.from}${pair.to}`]
  return (
    codes.some((code) => code.startsWith(key)) || [pair.from, pair.to].some((coin) => nameHasWord(coin, text))
  )
}

/** Every exchangeable pair, narrowed by a search box; picking one hands back its two coins. */
export function ExchangePairs({
  onPick,
  current,
}: {
  onPick: (pair: ExchangePair) => void
  current?: { from: string; to: string }
}) {
  const { t } = useTranslation()
  const pairs = useExchangePairs()
  const [text, setText] = useState('')
  return (
    <div className="form" data-testid="exchange-pairs">
      <input
        className="filter-input"
        type="search"
        placeholder={t('exchange.searchPairs')}
        aria-label={t('exchange.searchPairs')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid="pair-search"
      />
      <DataState {...pairs} isEmpty={(page) => page.rows.length === 0}>
        {(page) => {
          const matches = page.rows.filter((pair) => pairMatches(pair, text))
          if (matches.length === 0) return <NoData text={t('exchange.noPairs')} />
          return (
            <ul className="list" aria-label={t('exchange.pairs')}>
              {matches.map((pair) => (
                <li key={pair.id}>
                  <button
                    type="button"
                    className="list-row"
                    aria-current={current?.from === pair.from && current.to === pair.to ? 'true' : undefined}
                    onClick={() => onPick(pair)}
                    data-pair={`${pair.from}-${pair.to}`}
                  >
                    <span className="list-row-title" dir="ltr">
                      {pair.from.toUpperCase()} → {pair.to.toUpperCase()}
                    </span>
                    <ChevronIcon />
                  </button>
                </li>
              ))}
            </ul>
          )
        }}
      </DataState>
    </div>
  )
}
