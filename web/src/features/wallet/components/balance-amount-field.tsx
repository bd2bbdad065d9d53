import { useTranslation } from '../../../lib/i18n'
import { truncateToPrecision } from '@tradegate/shared'
import { CoinAmountField } from '../../../components/coin-amount-field'
import { useFormatters } from '../../../lib/use-formatters'

/**
 * An amount of one coin taken from a balance, with that balance shown under it. Max fills exactly
 * what the screen shows as available: the balance cut to the coin's precision.
 */
export function BalanceAmountField({
  coin,
  value,
  available,
  onValueChange,
  testId,
  error,
}: {
  error?: string | null
  coin: string
  value: string
  available: string
  onValueChange: (value: string) => void
  /** the Max button is `${testId}-max`, the balance `${testId}-available` */
  testId: string
}) {
  const { t } = useTranslation()
  const { money, precisionOf } = useFormatters()
  return (
    <>
      <CoinAmountField
        coin={coin}
        value={value}
        max={truncateToPrecision(available, precisionOf(coin)).toFixed()}
        onValueChange={onValueChange}
        testId={testId}
        error={error}
      />
      <p className="kv">
        <span>{t('money.available')}</span>
        <span className="num" data-testid={`${testId}-available`}>
          {money(available, coin)} {coin.toUpperCase()}
        </span>
      </p>
    </>
  )
}
