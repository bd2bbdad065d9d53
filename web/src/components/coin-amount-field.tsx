import { useTranslation } from 'react-i18next'
import { AmountField } from './form'
import { useFormatters } from '../lib/use-formatters'

/** The amount field's id: a submit button names its error as the reason it is disabled. */
export const AMOUNT_FIELD_ID = 'field-amount'

/**
 * An amount of one coin, refused past the coin's precision, with a Max button that fills `max`
 * (already cut to the coin's precision by the caller, so it is exactly what the screen shows).
 */
export function CoinAmountField({
  coin,
  value,
  max,
  onValueChange,
  testId,
  error,
}: {
  /** what is wrong with the amount (over the balance, under the minimum): tied to the field */
  error?: string | null
  coin: string
  value: string
  max: string
  onValueChange: (value: string) => void
  /** the Max button is `${testId}-max` */
  testId: string
}) {
  const { t } = useTranslation()
  const { precisionOf } = useFormatters()
  return (
    <AmountField
      label={`${t('wallet.amount')} (${coin.toUpperCase()})`}
      name="amount"
      id={AMOUNT_FIELD_ID}
      error={error}
      value={value}
      places={precisionOf(coin)}
      onValueChange={onValueChange}
      end={
        <button
          type="button"
          className="button button-text"
          onClick={() => onValueChange(max)}
          data-testid={`${testId}-max`}
        >
          {t('money.max')}
        </button>
      }
    />
  )
}
