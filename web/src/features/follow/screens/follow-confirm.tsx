import { useTranslation } from 'react-i18next'
import { useLocation, useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { AmountForm } from '../../../components/amount-form'
import { showToast } from '../../../lib/toast'
import { useTraders } from '../api/get-traders'
import { startFollow } from '../api/start-follow'

export default function FollowConfirmScreen() {
  const { t } = useTranslation()
  const [, navigate] = useLocation()
  const { id } = useParams<{ id: string }>()
  const traders = useTraders()
  return (
    <Screen title={t('follow.follow')}>
      <DataState {...traders} isEmpty={(page) => !page.rows.some((row) => String(row.id) === id)}>
        {(page) => {
          const trader = page.rows.find((row) => String(row.id) === id)
          if (!trader) return null
          return (
            <>
              <div className="card stat-grid">
                <div className="stat">
                  <span className="stat-label">{trader.nickname}</span>
                  <span className="stat-value up num">{trader.winRate}%</span>
                </div>
                <div className="stat">
                  <span className="stat-label">{t('follow.minAmount')}</span>
                  <span className="stat-value num">{trader.minAmount} USDT</span>
                </div>
              </div>
              <AmountForm
                coin="usdt"
                label={t('common.confirm')}
                onSubmit={async (amount) => {
                  await startFollow({ traderId: trader.id, amount })
                  showToast(t('common.success'))
                  navigate('/floworder/mine')
                }}
              />
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
