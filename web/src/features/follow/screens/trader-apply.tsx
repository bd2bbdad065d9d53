import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { AmountField, Field, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { useSettings } from '../../../lib/settings'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { applyAsTrader } from '../api/apply-trader'

export default function TraderApplyScreen() {
  const { t } = useTranslation()
  const { TRADER_SETTING } = useSettings()
  const { precisionOf } = useFormatters()
  const [nickname, setNickname] = useState('')
  const [amount, setAmount] = useState('')
  const submit = useSubmit({ money: true })
  const run = () =>
    submit.run(async (signal) => {
      await applyAsTrader({ nickname: nickname.trim(), amount: amount.trim() }, { signal })
      showOutcome(t('common.success'))
    })
  return (
    <Screen title={t('follow.apply')}>
      <div className="card stat-grid">
        <Stat label={t('follow.minAmount')}>{TRADER_SETTING.traderMinAmount} USDT</Stat>
        <Stat label={t('follow.maxFollowers')}>{TRADER_SETTING.maxUserCount}</Stat>
      </div>
      <Form onSubmit={run}>
        <Field label={t('follow.nickname')} name="nickname" value={nickname} onValueChange={setNickname} />
        <AmountField
          label={t('common.withUnit', { name: t('wallet.amount'), unit: 'USDT' })}
          name="amount"
          value={amount}
          // the stake is USDT, as the gateway counts it (traderApply's scale)
          places={precisionOf('usdt')}
          onValueChange={setAmount}
        />
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!nickname || !isPositiveAmount(amount)}>
          {t('common.submit')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
