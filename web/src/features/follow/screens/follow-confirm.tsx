import { useTranslation } from '../../../lib/i18n'
import { useLocation, useParams } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { AmountForm } from '../../../components/amount-form'
import { showOutcome } from '../../../lib/toast'
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
                <Stat label={trader.nickname} valueClassName="stat-value up num">
                  {trader.winRate}%
                </Stat>
                <Stat label={t('follow.minAmount')}>{trader.minAmount} USDT</Stat>
              </div>
              <AmountForm
                coin="usdt"
                label={t('common.confirm')}
                onSubmit={async (amount) => {
                  await startFollow({ traderId: trader.id, amount })
                  showOutcome(t('common.success'))
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
