import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toDecimal } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Failure } from '../../../components/failure'
import { AmountField, Field, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { QrCode } from '../../../components/qr-code'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { usePayAddress } from '../api/get-pay-address'
import { useRechargeCoins } from '../api/get-recharge-coins'
import { useRechargeList } from '../api/get-recharge-list'
import { submitRecharge } from '../api/submit-recharge'
import { RequestList } from '../components/request-list'

/** Deposit: pick a coin and network, send to the shown address (or its QR code), then report the deposit. */
export default function RechargeScreen() {
  const { t } = useTranslation()
  const coins = useRechargeCoins()
  const recharges = useRechargeList()
  const [chosen, setChosen] = useState<string | null>(null)
  const [amount, setAmount] = useState('')
  const [txHash, setTxHash] = useState('')
  const selected = coins.data?.find((row) => row.coinName === chosen) ?? coins.data?.[0]
  const coin = selected?.coin.toUpperCase() ?? ''
  // channels are named COIN-NETWORK, e.g. USDT-TRC20
  const network = selected?.coinName.split('-')[1]
  const address = usePayAddress(
    selected ? { coin: selected.coin, ...(network ? { chain: network } : {}) } : null,
  )
  const belowMinimum =
    selected !== undefined && isPositiveAmount(amount) && toDecimal(amount).lessThan(selected.rechargeMin)
  const submit = useSubmit({ money: true, checkWhere: 'submit.where.deposits' })
  const run = () =>
    submit.run(async (signal) => {
      if (!selected) return
      if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
      if (belowMinimum) return showToast(t('errors.rechargeBelowMinimum'))
      await submitRecharge(
        {
          coin: selected.coin,
          amount,
          ...(network ? { chain: network } : {}),
          ...(txHash.trim() ? { txHash: txHash.trim() } : {}),
        },
        { signal },
      )
      showToast(t('money.recharge.submitted'))
      setAmount('')
      setTxHash('')
      void recharges.mutate()
    })
  const copy = (text: string) =>
    navigator.clipboard?.writeText(text).then(
      () => showToast(t('common.copied')),
      () => undefined,
    )
  return (
    <Screen title={t('menu.recharge')}>
      <DataState {...coins} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <>
            <div className="chips" role="group" aria-label={t('money.recharge.network')}>
              {rows.map((row) => (
                <button
                  key={row.coinName}
                  type="button"
                  aria-pressed={selected?.coinName === row.coinName}
                  onClick={() => setChosen(row.coinName)}
                  data-coin={row.coinName}
                >
                  {row.coinName}
                </button>
              ))}
            </div>
            <div className="card form">
              <p className="note note-warning" data-testid="network-warning">
                {t('money.recharge.networkWarning', { coin, network: network ?? coin })}
              </p>
              {address.data ? (
                <>
                  <QrCode
                    text={address.data.address}
                    label={t('money.recharge.qr', { coin })}
                    testId="deposit-qr"
                  />
                  <p className="stat-label">
                    {t('wallet.depositAddress')} · {network}
                  </p>
                  <p
                    className="num"
                    style={{ wordBreak: 'break-all', fontWeight: 600 }}
                    data-testid="deposit-address"
                  >
                    {address.data.address}
                  </p>
                  <button
                    type="button"
                    className="button"
                    onClick={() => void copy(address.data?.address ?? '')}
                  >
                    {t('common.copy')}
                  </button>
                </>
              ) : address.error ? (
                <Failure error={address.error} onRetry={address.retry} />
              ) : (
                <p className="muted" data-testid="deposit-address">
                  {t('money.recharge.addressComing')}
                </p>
              )}
              {selected && (
                <>
                  <p className="kv">
                    <span>{t('money.recharge.minimum')}</span>
                    <span className="num" data-testid="recharge-minimum">
                      {selected.rechargeMin} {coin}
                    </span>
                  </p>
                  <p className="muted">
                    {t('money.recharge.belowMinimumLost', { min: selected.rechargeMin, coin })}
                  </p>
                  <p className="muted">{t('money.recharge.arrival')}</p>
                </>
              )}
            </div>
            <div className="card">
              <p className="section-title">{t('money.recharge.report')}</p>
              <Form onSubmit={run}>
                <AmountField
                  label={`${t('wallet.amount')} (${coin})`}
                  name="amount"
                  value={amount}
                  onValueChange={setAmount}
                  placeholder={
                    selected ? t('money.recharge.atLeast', { min: selected.rechargeMin }) : undefined
                  }
                />
                {belowMinimum && (
                  <p className="note note-warning">
                    {t('money.recharge.belowMinimum', { min: selected?.rechargeMin, coin })}
                  </p>
                )}
                <Field
                  label={t('money.recharge.txHash')}
                  name="txHash"
                  value={txHash}
                  onValueChange={setTxHash}
                  autoComplete="off"
                />
                <SubmitNotice submit={submit} />
                <SubmitButton busy={submit.busy} disabled={!isPositiveAmount(amount) || belowMinimum}>
                  {t('money.recharge.submit')}
                </SubmitButton>
              </Form>
            </div>
            <p className="section-title">{t('money.recharge.recent')}</p>
            <RequestList source={recharges} testId="recharge-list" />
          </>
        )}
      </DataState>
    </Screen>
  )
}
