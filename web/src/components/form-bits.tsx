import type { CSSProperties, ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import { Field, FieldError, fieldErrorProps } from './form'

/** The fund password, shown only where FUND_PASSWORD_SETTING asks for it on this kind of order. */
export function FundPasswordField({
  needed,
  value,
  onChange,
}: {
  needed: boolean
  value: string
  onChange: (value: string) => void
}) {
  const { t } = useTranslation()
  if (!needed) return null
  return (
    <Field
      label={t('trade.fundPassword')}
      name="fundPwd"
      type="password"
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  )
}

/** The message of a refused order, kept beside the form until the next attempt. */
export function OrderError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <p className="form-error" role="alert" data-testid="order-error">
      {message}
    </p>
  )
}

/** A label and a value on one line, the value right-aligned in tabular digits. */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="figure">
      <span className="figure-label">{label}</span>
      <span className="figure-value num" data-testid={testId}>
        {children}
      </span>
    </div>
  )
}

const STEPS = [25, 50, 75, 100]

/** A 0–100 % slider with quick steps; the caller turns the percent into an amount. */
export function PercentSlider({ value, onChange }: { value: number; onChange: (percent: number) => void }) {
  const { t } = useTranslation()
  return (
    <div className="percent-slider">
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        aria-label={t('trade.percentOfAvailable')}
        style={{ '--fill': value / 100 } as CSSProperties}
      />
      <div className="percent-steps">
        {STEPS.map((step) => (
          <button
            key={step}
            type="button"
            className={value === step ? 'active' : undefined}
            onClick={() => onChange(step)}
            data-percent={step}
          >
            {step}%
          </button>
        ))}
      </div>
    </div>
  )
}

/** A two-way choice (buy/sell, market/limit) as a segmented control. */
export function Choice<T extends string>({
  options,
  value,
  onChange,
  label,
  tone,
}: {
  options: ReadonlyArray<{ value: T; label: string; disabled?: boolean }>
  value: T
  onChange: (value: T) => void
  label: string
  /** colours the chosen side green or red */
  tone?: (value: T) => 'up' | 'down' | undefined
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          disabled={option.disabled}
          className={option.value === value && tone ? `tone-${tone(option.value) ?? ''}` : undefined}
          onClick={() => onChange(option.value)}
          data-choice={option.value}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}

/** A decimal input with its unit at the end; the caller sanitises what is typed. */
export function AmountInput({
  label,
  name,
  unit,
  value,
  onChange,
  hint,
  action,
  note,
  error,
  errorTestId,
}: {
  label: string
  name: string
  unit: string
  /** what is wrong with the value: shown under the field, tied to it and read out politely */
  error?: string | null
  /** the error's test id while it shows */
  errorTestId?: string
  value: string
  onChange: (text: string) => void
  hint?: string
  /** a button inside the field, e.g. "Max" */
  action?: { label: string; onClick: () => void; testId: string }
  /** a line under the field, e.g. the size in other units */
  note?: ReactNode
}) {
  const id = `order-${name}`
  return (
    <label className="field amount-input" htmlFor={id}>
      <span className="field-label">{label}</span>
      <span className="field-control">
        <input
          id={id}
          {...fieldErrorProps(id, error)}
          name={name}
          inputMode="decimal"
          autoComplete="off"
          placeholder={hint ?? '0'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
        <span className="input-unit">{unit.toUpperCase()}</span>
        {action && (
          <button type="button" className="input-action" onClick={action.onClick} data-testid={action.testId}>
            {action.label}
          </button>
        )}
      </span>
      {note && <span className="field-note num">{note}</span>}
      <FieldError id={id} error={error} testId={errorTestId} />
    </label>
  )
}

/** The limit price field, or the market's "best price" line when the order is at market. */
export function PriceField({
  limit,
  unit,
  value,
  onChange,
}: {
  limit: boolean
  unit: string
  value: string
  onChange: (text: string) => void
}) {
  const { t } = useTranslation()
  if (limit) {
    return <AmountInput label={t('trade.price')} name="price" unit={unit} value={value} onChange={onChange} />
  }
  return (
    <div className="readonly-input">
      <span className="field-label">{t('trade.price')}</span>
      <span>{t('trade.bestMarketPrice')}</span>
    </div>
  )
}
