import { useTranslation } from '../../../lib/i18n'
import { mul, type Period } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'

/** The second contract's periods as chips: how long it runs and what a right call pays. */
export function PeriodChoice({
  periods,
  value,
  onChange,
}: {
  periods: readonly Period[]
  value: number | undefined
  onChange: (id: number) => void
}) {
  const { t } = useTranslation()
  const { percent } = useFormatters()
  return (
    <div className="field">
      <span className="field-label">{t('trade.period')}</span>
      <div className="period-grid" role="group" aria-label={t('trade.period')}>
        {periods.map((row) => (
          <button
            key={row.id}
            type="button"
            className="period-chip"
            aria-pressed={row.id === value}
            onClick={() => onChange(row.id)}
            data-period={row.seconds}
          >
            <span className="period-seconds num">{row.seconds}s</span>
            <span className="period-rate num up">+{percent(mul(row.rate, 100))}%</span>
          </button>
        ))}
      </div>
    </div>
  )
}
