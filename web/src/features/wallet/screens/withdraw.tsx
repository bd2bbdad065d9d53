import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Field, Form, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { useSession } from '../../../lib/session'
import { showToast } from '../../../lib/toast'
import { useWithdrawChannels } from '../api/get-withdraw-channels'
import { useWithdrawStatus } from '../api/get-withdraw-status'
import { submitWithdraw } from '../api/submit-withdraw'

export default function WithdrawScreen() {
  const { t } = useTranslation()
  const { userInfo } = useSession()
  const channels = useWithdrawChannels()
  const status = useWithdrawStatus()
  const [address, setAddress] = useState(userInfo?.withdrawAddress.address ?? '')
  const [amount, setAmount] = useState('')
  const [pwd, setPwd] = useState('')
  const [chosen, setChosen] = useState<string | null>(null)
  const channel = channels.data?.find((row) => row.rechargeName === chosen) ?? channels.data?.[0]
  const { busy, run } = useSubmit(async () => {
    if (!channel) return
    // channels are named COIN-CHAIN, e.g. USDT-TRC20
    const coin = (channel.rechargeName.split('-')[0] ?? '').toLowerCase()
    await submitWithdraw({
      coin,
      chain: channel.rechargeType,
      amount: amount.trim(),
      address: address.trim(),
      pwd,
    })
    showToast(t('wallet.withdrawSubmitted'))
    setAmount('')
    void status.mutate()
  })
  return (
    <Screen title={t('wallet.withdraw')}>
      <DataState {...channels} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <>
            <div className="chips" role="group" aria-label={t('wallet.channel')}>
              {rows.map((row) => (
                <button
                  key={row.rechargeName}
                  type="button"
                  aria-pressed={row.rechargeName === channel?.rechargeName}
                  onClick={() => setChosen(row.rechargeName)}
                >
                  {row.rechargeName}
                </button>
              ))}
            </div>
            <div className="card stat-grid">
              <Stat label={t('wallet.todayLeft')}>
                {status.data
                  ? `${status.data.dayCount - status.data.usedToday}/${status.data.dayCount}`
                  : '--'}
              </Stat>
              <Stat label={t('wallet.minMax')} valueClassName="num">
                {channel?.withdrawalMix} – {channel?.withdrawalMax}
              </Stat>
              <Stat label={t('wallet.feeRatio')} valueClassName="num">
                {channel?.ratio}%
              </Stat>
            </div>
            <Form onSubmit={run}>
              <Field label={t('wallet.address')} name="address" value={address} onValueChange={setAddress} />
              <Field
                label={t('wallet.amount')}
                name="amount"
                inputMode="decimal"
                value={amount}
                onValueChange={setAmount}
              />
              <Field
                label={t('account.fundPassword')}
                name="pwd"
                type="password"
                value={pwd}
                onValueChange={setPwd}
              />
              <SubmitButton busy={busy} disabled={!address || !amount || !pwd}>
                {t('common.submit')}
              </SubmitButton>
            </Form>
          </>
        )}
      </DataState>
    </Screen>
  )
}
