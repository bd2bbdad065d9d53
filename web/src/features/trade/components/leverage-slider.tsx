import { memo, type CSSProperties } from 'react'
import { useTranslation } from '../../../lib/i18n'

/**
 * Leverage by a slider from 1× to the pair's highest, with its value written beside it and the pair's
 * presets as quick picks. Memoised: the contract form around it renders again on every tick of the
 * price (its estimates follow it), and the slider, its labels and its chips do not change with it.
 */
export const LeverageSlider = memo(function LeverageSlider({
  presets,
  value,
  onChange,
}: {
  presets: readonly number[]
  value: number
  onChange: (leverage: number) => void
}) {
  const { t } = useTranslation()
  const max = Math.max(1, ...presets)
  const valueText = t('trade.futures.leverageValue', { value })
  return (
    <div className="field leverage-field">
      <label className="field-label" htmlFor="order-leverage">
        {t('trade.leverage')} <span className="muted">{t('trade.futures.leverageMax', { max })}</span>
      </label>
      <div className="percent-slider leverage-slider">
        <input
          id="order-leverage"
          type="range"
          min={1}
          max={max}
          step={1}
          value={value}
          aria-valuetext={valueText}
          style={{ '--fill': max > 1 ? (value - 1) / (max - 1) : 1 } as CSSProperties}
          onChange={(event) => onChange(Number(event.target.value))}
          data-testid="leverage-slider"
        />
        <output htmlFor="order-leverage" className="num" data-testid="leverage-value">
          {value}×
        </output>
      </div>
      <div className="leverage-chips" role="group" aria-label={t('trade.futures.leveragePresets')}>
        {presets.map((choice) => (
          <button
            key={choice}
            type="button"
            className="chip num"
            aria-pressed={choice === value}
            onClick={() => onChange(choice)}
            data-leverage={choice}
          >
            {choice}×
          </button>
        ))}
      </div>
    </div>
  )
})
