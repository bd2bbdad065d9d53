import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Field, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { applyAsTrader } from '../api/apply-trader'

export default function TraderApplyScreen() {
  const { t } = useTranslation()
  const { TRADER_SETTING } = useSettings()
  const [nickname, setNickname] = useState('')
  const [amount, setAmount] = useState('')
  const { busy, run } = useSubmit(async () => {
    await applyAsTrader({ nickname: nickname.trim(), amount: amount.trim() })
    showToast(t('common.success'))
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run()
  }
  return (
    <Screen title={t('follow.apply')}>
      <div className="card stat-grid">
        <div className="stat">
          <span className="stat-label">{t('follow.minAmount')}</span>
          <span className="stat-value num">{TRADER_SETTING.traderMinAmount} USDT</span>
        </div>
        <div className="stat">
          <span className="stat-label">{t('follow.maxFollowers')}</span>
          <span className="stat-value num">{TRADER_SETTING.maxUserCount}</span>
        </div>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={t('follow.nickname')}
          name="nickname"
          value={nickname}
          onChange={(event) => setNickname(event.target.value)}
        />
        <Field
          label={`${t('wallet.amount')} (USDT)`}
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <SubmitButton busy={busy} disabled={!nickname || !amount}>
          {t('common.submit')}
        </SubmitButton>
      </form>
    </Screen>
  )
}
