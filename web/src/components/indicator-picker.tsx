import { useTranslation } from '../lib/i18n'
import { INDICATORS, type Indicator, type IndicatorChoice } from './chart-indicators'
import { INDICATOR_COLOURS } from './chart-setup'

/**
 * Toggles for the chart's indicators. A button is named by its short label, as seen (a spoken name
 * that differs from the visible one confuses voice control); its title describes it in full.
 */
export function IndicatorPicker({
  choice,
  onToggle,
}: {
  choice: IndicatorChoice
  onToggle: (indicator: Indicator) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="interval-bar indicator-bar" role="group" aria-label={t('chart.indicators')}>
      {INDICATORS.map((indicator) => (
        <button
          key={indicator}
          type="button"
          aria-pressed={choice[indicator]}
          title={t(`chart.indicatorNames.${indicator}`)}
          onClick={() => onToggle(indicator)}
          data-indicator={indicator}
        >
          <span
            className={`indicator-swatch indicator-${indicator}`}
            style={indicator === 'volume' ? undefined : { background: INDICATOR_COLOURS[indicator] }}
            aria-hidden="true"
          />
          {t(`chart.indicatorShort.${indicator}`)}
        </button>
      ))}
    </div>
  )
}
