import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Screen } from '../../../components/screen'
import { useRechargeList } from '../api/get-recharge-list'
import { useWithdrawList } from '../api/get-withdraw-list'
import { RequestList } from '../components/request-list'

/** Deposit and withdrawal history. */
export default function WithdrawDepositScreen() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<'deposit' | 'withdraw'>('deposit')
  const deposits = useRechargeList()
  const withdrawals = useWithdrawList()
  return (
    <Screen title={t('wallet.history')}>
      <div className="segmented" role="group">
        <button type="button" aria-pressed={tab === 'deposit'} onClick={() => setTab('deposit')}>
          {t('menu.recharge')}
        </button>
        <button type="button" aria-pressed={tab === 'withdraw'} onClick={() => setTab('withdraw')}>
          {t('wallet.withdraw')}
        </button>
      </div>
      <RequestList source={tab === 'deposit' ? deposits : withdrawals} />
    </Screen>
  )
}
