import { useTranslation } from '../../../lib/i18n'
import type { AccountType } from '@tradegate/shared'
import { SelectField } from '../../../components/form'
import { SwapIcon } from '../../../components/icons'

const ACCOUNTS: readonly AccountType[] = ['platform', 'financial', 'contract']

/** The from and to accounts of a transfer; choosing the other side's account swaps them, never equal. */
export function TransferAccounts({
  from,
  to,
  onChange,
}: {
  from: AccountType
  to: AccountType
  onChange: (from: AccountType, to: AccountType) => void
}) {
  const { t } = useTranslation()
  const options = ACCOUNTS.map((value) => ({ value, label: t(`wallet.accounts.${value}`) }))
  const chooseFrom = (value: AccountType) => onChange(value, value === to ? from : to)
  const chooseTo = (value: AccountType) => onChange(value === from ? to : from, value)
  return (
    <div className="transfer-accounts">
      <SelectField
        label={t('money.transfer.from')}
        name="from"
        value={from}
        options={options}
        onValueChange={(value) => chooseFrom(value as AccountType)}
      />
      <button
        type="button"
        className="icon-button"
        onClick={() => onChange(to, from)}
        aria-label={t('money.transfer.swap')}
        data-testid="transfer-swap"
      >
        <SwapIcon />
      </button>
      <SelectField
        label={t('money.transfer.to')}
        name="to"
        value={to}
        options={options}
        onValueChange={(value) => chooseTo(value as AccountType)}
      />
    </div>
  )
}
