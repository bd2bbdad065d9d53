import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'wouter'
import { Screen } from '../../../components/screen'
import { ExchangePairs } from '../components/exchange-pairs'

/** The currency pairs that can be exchanged, searchable; each opens the flash exchange form. */
export default function ExchangeScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  return (
    <Screen title={t('wallet.exchange')}>
      <ExchangePairs onPick={(pair) => navigate(`/flashExchange?from=${pair.from}&to=${pair.to}`)} />
    </Screen>
  )
}
