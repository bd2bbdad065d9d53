import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { FeedStatusBadge } from '../../../components/feed-status'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useWatchlist } from '../../../lib/api/get-watchlist'
import { useSymbolList } from '../../../lib/api/get-symbol-list'
import { CoinSearchInput, CoinSearchList } from '../../../components/coin-search-list'
import '../../../components/trading.css'

/** Manages the watchlist: what is on it now, and every coin to add. */
export default function AddOptionalScreen() {
  const { t } = useTranslation()
  const watchlist = useWatchlist()
  const coins = useSymbolList()
  const [text, setText] = useState('')
  return (
    <Screen title={t('watchlist.title')}>
      <section>
        <div className="section-head">
          <h2 className="section-title">{t('watchlist.mine')}</h2>
          <FeedStatusBadge />
        </div>
        <DataState {...watchlist} isEmpty={(list) => list.length === 0}>
          {(list) => <CoinSearchList coins={list} text="" />}
        </DataState>
      </section>
      <section className="stack-gap">
        <h2 className="section-title">{t('watchlist.allCoins')}</h2>
        <CoinSearchInput value={text} onValueChange={setText} />
        <DataState {...coins}>{(all) => <CoinSearchList coins={all} text={text} />}</DataState>
      </section>
    </Screen>
  )
}
