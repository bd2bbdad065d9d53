import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { MAX_AMOUNT_WHOLE_DIGITS } from '@tradegate/shared'
import { AmountField } from './form'
import { MAX_TYPED_DECIMALS, typedAmountProblem, type TypedAmountProblem } from '../lib/order-math'
import { useFormatters } from '../lib/use-formatters'

/** The amount field's id: a submit button names its error as the reason it is disabled. */
export const AMOUNT_FIELD_ID = 'field-amount'

/**
 * An amount of one coin with a Max button that fills `max` (already cut to the coin's precision by
 * the caller, so it is exactly what the screen shows). Text past the coin's precision, or longer
 * than any amount, is refused with the reason as the field's error: the amount stays as it was,
 * never silently cut to something the user did not type.
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
  const places = precisionOf(coin)
  const [refused, setRefused] = useState<TypedAmountProblem | null>(null)
  const take = (typed: string) => {
    const problem = typedAmountProblem(typed, places)
    setRefused(problem)
    if (!problem) onValueChange(typed)
  }
  const refusal = refused
    ? t(`errors.${refused}`, { coin: coin.toUpperCase(), places, digits: MAX_AMOUNT_WHOLE_DIGITS })
    : null
  return (
    <AmountField
      label={t('common.withUnit', { name: t('wallet.amount'), unit: coin.toUpperCase() })}
      name="amount"
      id={AMOUNT_FIELD_ID}
      error={refusal ?? error}
      value={value}
      places={MAX_TYPED_DECIMALS}
      onValueChange={take}
      end={
        <button
          type="button"
          className="button button-text"
          onClick={() => take(max)}
          data-testid={`${testId}-max`}
        >
          {t('money.max')}
        </button>
      }
    />
  )
}
