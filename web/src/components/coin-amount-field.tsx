import { useTranslation } from 'react-i18next'
import { AmountField } from './form'
import { useFormatters } from '../lib/use-formatters'

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
}: {
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
