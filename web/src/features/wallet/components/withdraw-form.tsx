import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { checkAddress, toDecimal, type WithdrawChannel } from '@tradegate/shared'
import { CoinAmountField } from '../../../components/coin-amount-field'
import { Field, Form, SubmitButton, isPositiveAmount } from '../../../components/form'
import { focusElement } from '../../../lib/focus'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { useSettings } from '../../../lib/settings'
import { showOutcome, showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { useAccountInfo } from '../../../lib/api/get-info'
import { useAddressBook } from '../api/address-book'
import { findWithdrawalSince } from '../api/find-records'
import { submitWithdraw } from '../api/submit-withdraw'
import { WithdrawAddressFields } from './withdraw-address'
import { WithdrawConfirm, type WithdrawDraft } from './withdraw-confirm'
import { maxWithdrawal, quoteWithdrawal } from './withdraw-quote'

const ADDRESS_FIELD_ID = 'withdraw-address'

/** The first thing wrong with the amount, as a message; null when it may be sent. */
function amountProblem(amount: string, channel: WithdrawChannel, available: string): string | null {
  if (!isPositiveAmount(amount)) return null
  if (toDecimal(amount).lessThan(channel.withdrawalMix)) return 'errors.withdrawBelowMinimum'
  if (toDecimal(amount).greaterThan(channel.withdrawalMax)) return 'errors.withdrawAboveMaximum'
  if (toDecimal(amount).greaterThan(available)) return 'errors.insufficientBalance'
  return null
}

/** Address, amount and password on one network, then a confirmation of what will leave and arrive. */
export function WithdrawForm(props: {
  channel: WithdrawChannel
  coin: string
  available: string
  freeLeft: number
  onSubmitted: () => void
}) {
  const { channel, coin, available, freeLeft } = props
  const { t } = useTranslation()
  const { precisionOf } = useFormatters()
  const settings = useSettings()
  const needsFundPassword =
    settings.FUND_PASSWORD_SETTING.withdraw || settings.VERIFY_CODE_SETTING.withdrawPassword
  const info = useAccountInfo()
  const book = useAddressBook()
  const [address, setAddress] = useState('')
  const [memo, setMemo] = useState('')
  const [amount, setAmount] = useState('')
  const [pwd, setPwd] = useState('')
  const [draft, setDraft] = useState<WithdrawDraft | null>(null)
  // an address is judged once the user leaves its field or asks to review, not at every letter
  const [addressChecked, setAddressChecked] = useState(false)
  const network = channel.rechargeType
  const places = precisionOf(coin)
  const quote = quoteWithdrawal(isPositiveAmount(amount) ? amount : '0', channel.ratio, freeLeft, places)
  const problem = amountProblem(amount, channel, available)
  const noFundPassword = needsFundPassword && info.data !== undefined && !info.data.user.hasFundPassword
  const addressProblem = address ? checkAddress(network, address, memo) : null
  const addressError = addressChecked && addressProblem ? t(`errors.${addressProblem}`, { network }) : null
  const review = () => {
    if (!isPositiveAmount(amount)) return showToast(t('errors.amountMustBePositive'))
    if (problem) return showToast(t(problem))
    if (addressProblem) {
      setAddressChecked(true)
      // the field says what is wrong; focus there reads it
      focusElement(document.getElementById(ADDRESS_FIELD_ID))
      return
    }
    setDraft({ coin, network, address, memo, amount, ...quote })
  }
  const disabledReason = noFundPassword
    ? t('errors.fundPasswordNotSet')
    : !address
      ? t('errors.invalidUsernameFor_address')
      : !isPositiveAmount(amount)
        ? t('errors.amountMustBePositive')
        : problem
          ? t(problem)
          : !pwd
            ? needsFundPassword
              ? t('errors.fundPasswordRequired')
              : `${t('account.loginPassword')}: ${t('withdrawal.required')}`
            : null
  const submit = useSubmit({
    money: true,
    checkWhere: 'submit.where.withdrawals',
    lookup: (sentAt) => findWithdrawalSince(coin, amount, address, sentAt),
    onSettled: props.onSubmitted,
  })
  const confirm = () =>
    submit.run(async (signal) => {
      await submitWithdraw(
        { coin, chain: network, amount, address, pwd, ...(memo ? { memo } : {}) },
        { signal },
      )
      showOutcome(t('wallet.withdrawSubmitted'))
      setDraft(null)
      setAmount('')
      setPwd('')
    })
  return (
    <>
      {draft && (
        <WithdrawConfirm
          draft={draft}
          busy={submit.busy}
          onConfirm={() => void confirm()}
          onBack={() => {
            submit.reset()
            setDraft(null)
          }}
        >
          <SubmitNotice submit={submit} />
        </WithdrawConfirm>
      )}
      {noFundPassword && (
        <p className="note note-warning" id="needs-fund-password" data-testid="needs-fund-password">
          {t('errors.fundPasswordNotSet')}{' '}
          <Link href="/fund-password">{t('money.withdraw.setFundPassword')}</Link>
        </p>
      )}
      <Form onSubmit={review}>
        <WithdrawAddressFields
          network={network}
          address={address}
          memo={memo}
          book={book.data ?? []}
          onAddress={setAddress}
          onMemo={setMemo}
          addressId={ADDRESS_FIELD_ID}
          addressError={addressError}
          onAddressDone={() => setAddressChecked(true)}
        />
        <CoinAmountField
          coin={coin}
          value={amount}
          max={maxWithdrawal(available, channel.withdrawalMax, places)}
          onValueChange={setAmount}
          testId="withdraw"
          error={problem && t(problem)}
        />
        <WithdrawFigures coin={coin} fee={quote.fee} receive={quote.receive} />
        <Field
          label={needsFundPassword ? t('account.fundPassword') : t('account.loginPassword')}
          name="pwd"
          type="password"
          autoComplete="off"
          value={pwd}
          onValueChange={setPwd}
        />
        <SubmitButton
          busy={false}
          disabled={!address || !isPositiveAmount(amount) || !pwd || problem !== null || noFundPassword}
          reason={disabledReason}
        >
          {t('withdrawal.review')}
        </SubmitButton>
      </Form>
    </>
  )
}

/** What the withdrawal costs and what arrives, at the coin's precision, updated as the amount is typed. */
function WithdrawFigures({ coin, fee, receive }: { coin: string; fee: unknown; receive: unknown }) {
  const { t } = useTranslation()
  const { money } = useFormatters()
  return (
    <>
      <p className="kv">
        <span>{t('money.withdraw.fee')}</span>
        <span className="num" data-testid="withdraw-fee">
          {money(fee, coin)} {coin.toUpperCase()}
        </span>
      </p>
      <p className="kv">
        <span>{t('money.withdraw.receive')}</span>
        <span className="num" data-testid="withdraw-receive">
          {money(receive, coin)} {coin.toUpperCase()}
        </span>
      </p>
    </>
  )
}
