import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { FeedStatusBadge } from '../../../components/feed-status'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { CoinSearchInput, CoinSearchList } from '../../../components/coin-search-list'
import { useSymbolList } from '../../../lib/api/get-symbol-list'
import '../../../components/trading.css'

/** Searches every listed coin; a star adds it to or removes it from the watchlist. */
export default function SearchScreen() {
  const { t } = useTranslation()
  const symbols = useSymbolList()
  const [text, setText] = useState('')
  return (
    <Screen title={t('market.search')} right={<FeedStatusBadge />}>
      <CoinSearchInput value={text} onValueChange={setText} autoFocus />
      <DataState {...symbols}>{(coins) => <CoinSearchList coins={coins} text={text} />}</DataState>
    </Screen>
  )
}
