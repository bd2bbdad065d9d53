import { useTranslation } from '../lib/i18n'
import { KLINE_INTERVALS, type KlineInterval } from '@tradegate/shared'

/** The candle interval switch shared by the chart screen and the desktop trade screen's chart. */
export function IntervalBar({
  value,
  onChange,
}: {
  value: KlineInterval
  onChange: (interval: KlineInterval) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="interval-bar" role="group" aria-label={t('chart.interval')}>
      {KLINE_INTERVALS.map((choice) => (
        <button
          key={choice}
          type="button"
          aria-pressed={choice === value}
          onClick={() => onChange(choice)}
          data-interval={choice}
        >
          {t(`chart.intervals.${choice}`)}
        </button>
      ))}
    </div>
  )
}

export const DEFAULT_INTERVAL: KlineInterval = '15min'

/** The interval a link asked for, or the default one. */
export function intervalOf(value: string | null): KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value ?? '')
    ? (value as KlineInterval)
    : DEFAULT_INTERVAL
}
