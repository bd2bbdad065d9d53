import { useTranslation } from '../lib/i18n'
import { mul } from '@tradegate/shared'
import { useFormatters } from '../lib/use-formatters'

const DAYS_PER_YEAR = 365

/** A product's rate with its unit and period: the daily rate, and the simple annual rate (APR) it makes. */
export function ProductRate({ dailyRate }: { dailyRate: string }) {
  const { t } = useTranslation()
  const { percent } = useFormatters()
  return (
    <span className="list-row-main list-row-end-text">
      <span className="up phrase" data-testid="rate-daily">
        {t('money.rates.daily', { rate: percent(mul(dailyRate, 100)) })}
      </span>
      <span className="list-row-sub phrase" data-testid="rate-apr">
        {t('money.rates.apr', { rate: percent(mul(dailyRate, 100 * DAYS_PER_YEAR)) })}
      </span>
    </span>
  )
}

/** What the user should know before investing: returns are not guaranteed and principal can be lost. */
export function RiskNote() {
  const { t } = useTranslation()
  return (
    <p className="note" data-testid="risk-note">
      {t('money.rates.risk')}
    </p>
  )
}
