import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { toDecimal } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { AmountField, Field, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { coinPlaces } from '../../../lib/coins'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useAccountInfo } from '../../../lib/api/get-info'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useWithdrawChannels } from '../api/get-withdraw-channels'
import { useWithdrawStatus } from '../api/get-withdraw-status'
import { submitWithdraw } from '../api/submit-withdraw'
import { saveWithdrawAddress, useWithdrawAddresses } from '../api/withdraw-addresses'
import { maxWithdrawal, quoteWithdrawal } from '../components/withdraw-quote'

const ADDRESS_PATTERN = /^[A-Za-z0-9]{16,100}$/

/** Withdraw: every rule (window, limits, balance, fee, amount received) shown before the user types. */
export default function WithdrawScreen() {
  const { t } = useTranslation()
  const { amount: formatAmount } = useFormatters()
  const settings = useSettings()
  const rules = settings.WITHDRAWAL_SETTING
  const needsFundPassword =
    settings.FUND_PASSWORD_SETTING.withdraw || settings.VERIFY_CODE_SETTING.withdrawPassword
  const info = useAccountInfo()
  const channels = useWithdrawChannels()
  const status = useWithdrawStatus()
  const balances = useBalances()
  const saved = useWithdrawAddresses()
  const [address, setAddress] = useState<string | null>(null)
  const [amount, setAmount] = useState('')
  const [pwd, setPwd] = useState('')
  const [keepAddress, setKeepAddress] = useState(true)
  const [chosen, setChosen] = useState<string | null>(null)
  const channel = channels.data?.find((row) => row.rechargeName === chosen) ?? channels.data?.[0]
  // channels are named COIN-NETWORK, e.g. USDT-TRC20
  const coin = (channel?.rechargeName.split('-')[0] ?? '').toLowerCase()
  const COIN = coin.toUpperCase()
  const savedAddresses = (saved.data ?? []).filter((row) => !channel || row.type === channel.rechargeType)
  const shownAddress =
    address ?? savedAddresses.at(-1)?.address ?? info.data?.user.withdrawAddress.address ?? ''
  const available =
    balances.data?.find((row) => row.account === 'platform' && row.coin.toLowerCase() === coin)?.available ??
    '0'
  const freeLeft = status.data?.freeLeft ?? 0
  const quote = quoteWithdrawal(
    isPositiveAmount(amount) ? amount : '0',
    channel?.ratio ?? rules.ratio,
    freeLeft,
  )
  const problem = (() => {
    if (!channel || !isPositiveAmount(amount)) return null
    if (toDecimal(amount).lessThan(channel.withdrawalMix)) return t('errors.withdrawBelowMinimum')
    if (toDecimal(amount).greaterThan(channel.withdrawalMax)) return t('errors.withdrawAboveMaximum')
    if (toDecimal(amount).greaterThan(available)) return t('errors.insufficientBalance')
    return null
  })()
  const noFundPassword = needsFundPassword && info.data !== undefined && !info.data.user.hasFundPassword
  const windowOpen = status.data?.open ?? true
  const submit = useSubmit({ money: true, checkWhere: 'submit.where.withdrawals' })
  const run = () =>
    submit.run(async (signal) => {
      if (!channel) return
      if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
      if (problem) return showToast(problem)
      if (!ADDRESS_PATTERN.test(shownAddress.trim())) return showToast(t('money.withdraw.badAddress'))
      await submitWithdraw(
        { coin, chain: channel.rechargeType, amount, address: shownAddress.trim(), pwd },
        { signal },
      )
      showToast(t('wallet.withdrawSubmitted'))
      if (keepAddress && !savedAddresses.some((row) => row.address === shownAddress.trim())) {
        await saveWithdrawAddress(channel.rechargeType, shownAddress.trim()).catch(() => undefined)
        void saved.mutate()
      }
      setAmount('')
      setPwd('')
      void status.mutate()
      void balances.mutate()
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
            <div className="card form" data-testid="withdraw-rules">
              <p className="kv">
                <span>{t('money.withdraw.window')}</span>
                <span className="num" data-testid="withdraw-window">
                  {rules.startTime.slice(0, 5)}–{rules.endTime.slice(0, 5)} (UTC
                  {settings.DEFAULT_TIME_ZONE.label}) ·{' '}
                  {windowOpen ? t('money.withdraw.openNow') : t('money.withdraw.closedNow')}
                </span>
              </p>
              <p className="kv">
                <span>{t('money.available')}</span>
                <span className="num" data-testid="withdraw-available">
                  {formatAmount(available, coinPlaces(coin))} {COIN}
                </span>
              </p>
              <p className="kv">
                <span>{t('wallet.minMax')}</span>
                <span className="num">
                  {channel?.withdrawalMix} – {channel?.withdrawalMax} {COIN}
                </span>
              </p>
              <p className="kv">
                <span>{t('wallet.todayLeft')}</span>
                <span className="num">
                  {status.data
                    ? `${status.data.dayCount - status.data.usedToday}/${status.data.dayCount}`
                    : '--'}
                </span>
              </p>
              <p className="kv">
                <span>{t('wallet.feeRatio')}</span>
                <span className="num" data-testid="withdraw-fee-rule">
                  {freeLeft > 0
                    ? t('money.withdraw.freeLeft', { count: freeLeft })
                    : t('money.withdraw.feeRule', { ratio: channel?.ratio ?? rules.ratio })}
                </span>
              </p>
            </div>
            {!windowOpen && <p className="note note-warning">{t('errors.withdrawOutsideWindow')}</p>}
            {noFundPassword && (
              <p className="note note-warning" data-testid="needs-fund-password">
                {t('errors.fundPasswordNotSet')}{' '}
                <Link href="/fund-password">{t('money.withdraw.setFundPassword')}</Link>
              </p>
            )}
            <Form onSubmit={run}>
              <Field
                label={t('wallet.address')}
                name="address"
                value={shownAddress}
                onValueChange={setAddress}
                autoComplete="off"
              />
              {savedAddresses.length > 0 && (
                <div className="chips" role="group" aria-label={t('money.withdraw.savedAddresses')}>
                  {savedAddresses.map((row) => (
                    <button
                      key={row.id}
                      type="button"
                      aria-pressed={row.address === shownAddress}
                      onClick={() => setAddress(row.address)}
                      data-testid="saved-address"
                    >
                      {row.address.slice(0, 6)}…{row.address.slice(-4)}
                    </button>
                  ))}
                </div>
              )}
              <label className="check">
                <input
                  type="checkbox"
                  checked={keepAddress}
                  onChange={(event) => setKeepAddress(event.target.checked)}
                />
                <span>{t('money.withdraw.saveAddress')}</span>
              </label>
              <AmountField
                label={`${t('wallet.amount')} (${COIN})`}
                name="amount"
                value={amount}
                onValueChange={setAmount}
                end={
                  <button
                    type="button"
                    className="button button-text"
                    onClick={() => setAmount(maxWithdrawal(available, channel?.withdrawalMax ?? available))}
                    data-testid="withdraw-max"
                  >
                    {t('money.max')}
                  </button>
                }
              />
              {problem && <p className="note note-warning">{problem}</p>}
              <p className="kv">
                <span>{t('money.withdraw.fee')}</span>
                <span className="num" data-testid="withdraw-fee">
                  {quote.fee} {COIN}
                </span>
              </p>
              <p className="kv">
                <span>{t('money.withdraw.receive')}</span>
                <span className="num" data-testid="withdraw-receive">
                  {quote.receive} {COIN}
                </span>
              </p>
              <Field
                label={needsFundPassword ? t('account.fundPassword') : t('account.loginPassword')}
                name="pwd"
                type="password"
                autoComplete="off"
                value={pwd}
                onValueChange={setPwd}
              />
              <SubmitNotice submit={submit} />
              <SubmitButton
                busy={submit.busy}
                disabled={
                  !shownAddress || !isPositiveAmount(amount) || !pwd || problem !== null || noFundPassword
                }
              >
                {t('common.submit')}
              </SubmitButton>
            </Form>
          </>
        )}
      </DataState>
    </Screen>
  )
}
