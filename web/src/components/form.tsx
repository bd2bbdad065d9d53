import {
  useEffect,
  useId,
  useState,
  type FormEvent,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type SelectHTMLAttributes,
  type ReactNode,
} from 'react'
import { useTranslation } from '../lib/i18n'
import { MONEY_TEXT_PATTERN, PASSWORD_LENGTH } from '@tradegate/shared'
import { sanitiseAmount } from '../lib/order-math'
import { showToast } from '../lib/toast'

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  /** called instead of the browser's own submit */
  onSubmit: () => unknown
}

/** A form the app checks itself (no browser validation bubbles), submitted without a page load. */
export function Form({ onSubmit, className = 'form', children, ...rest }: FormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void onSubmit()
  }
  return (
    <form className={className} onSubmit={submit} noValidate {...rest}>
      {children}
    </form>
  )
}

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  /** what is wrong with the value: shown under the field, tied to it and read out politely */
  error?: string | null
  /** content at the end of the input, e.g. a send-code button */
  end?: ReactNode
  /** the input's new text on every change */
  onValueChange?: (value: string) => void
}

export function Field({ label, end, id, error, onValueChange, onChange, ...input }: FieldProps) {
  const inputId = id ?? `field-${input.name ?? label}`
  return (
    // the label holds the label's words only: its error and the control's extras (Max, Send code) are
    // the field's description and buttons of their own, not part of the name a screen reader reads
    <div className="field">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <span className="field-control">
        <input
          id={inputId}
          onChange={(event) => {
            onChange?.(event)
            onValueChange?.(event.target.value)
          }}
          {...fieldErrorProps(inputId, error)}
          {...input}
        />
        {end}
      </span>
      <FieldError id={inputId} error={error} />
    </div>
  )
}

/**
 * A file field in the page's language: the browser's own picker button and its "no file chosen" follow
 * the browser's language, not the one chosen in the app, so the input is hidden (still focused by Tab and
 * opened by Enter or Space) and the label shows a button of ours and the chosen file's name.
 */
export function FileField({
  label,
  choose,
  none,
  file,
  onFile,
  name,
  accept,
}: {
  label: string
  /** the button's words ("Choose photo") */
  choose: string
  /** what shows before a file is chosen */
  none: string
  file: File | null
  onFile(file: File | null): void
  name: string
  accept?: string
}) {
  const inputId = `field-${name}`
  return (
    <div className="field">
      <span className="field-label" id={`${inputId}-label`}>
        {label}
      </span>
      <label className="field-control file-pick" htmlFor={inputId}>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          name={name}
          accept={accept}
          aria-labelledby={`${inputId}-label ${inputId}-chosen`}
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        />
        <span className="button button-small" aria-hidden="true">
          {choose}
        </span>
        <span className="file-pick-name" id={`${inputId}-chosen`} data-testid="file-chosen">
          {file?.name ?? none}
        </span>
      </label>
    </div>
  )
}

/** The id of a field's error message, for aria-describedby. */
export function fieldErrorId(inputId: string): string {
  return `${inputId}-error`
}

/** aria-invalid and aria-describedby for an input whose error (if any) is shown by FieldError. */
export function fieldErrorProps(inputId: string, error: string | null | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': fieldErrorId(inputId) } : {}
}

/**
 * A field's error message. The polite live region is always there, empty while the value is fine,
 * so the message is read out when it appears (a region added with its text is often not).
 */
export function FieldError({
  id,
  error,
  testId = 'field-error',
}: {
  id: string
  error: string | null | undefined
  /** the message's test id while it shows (a rule's own name, e.g. `takeProfit-rule`) */
  testId?: string
}) {
  return (
    <span
      className="field-error"
      id={fieldErrorId(id)}
      aria-live="polite"
      data-testid={error ? testId : 'field-error'}
    >
      {error ?? ''}
    </span>
  )
}

const MONEY_PATTERN = new RegExp(MONEY_TEXT_PATTERN)

/** True for an amount the server can take: a decimal above zero. */
export function isPositiveAmount(text: string): boolean {
  return MONEY_PATTERN.test(text) && /[1-9]/.test(text)
}

export interface AmountFieldProps extends FieldProps {
  /**
   * the places the gateway judges this amount by (its scale in the call table, read through
   * `precisionOf`): digits typed past them are refused as they are typed
   */
  places: number
}

/** An amount input that refuses anything but a non-negative decimal within `places` while the user types. */
export function AmountField({ onValueChange, places, ...field }: AmountFieldProps) {
  return (
    <Field
      inputMode="decimal"
      autoComplete="off"
      {...field}
      onValueChange={(value) => onValueChange?.(sanitiseAmount(value, places))}
    />
  )
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string
  options: ReadonlyArray<{ value: string; label: string }>
  onValueChange?: (value: string) => void
}

/** A labelled choice from a short list, styled like the text fields. */
export function SelectField({ label, options, id, onValueChange, ...select }: SelectFieldProps) {
  const selectId = id ?? `select-${select.name ?? label}`
  return (
    <div className="field">
      <label className="field-label" htmlFor={selectId}>
        {label}
      </label>
      <span className="field-control">
        <select id={selectId} onChange={(event) => onValueChange?.(event.target.value)} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </span>
    </div>
  )
}

export interface CodeFieldProps extends Omit<FieldProps, 'label' | 'name' | 'end'> {
  /** requests a code; the field tells the user once it is sent */
  onSend: () => Promise<unknown>
  sendDisabled?: boolean
}

/** The verification-code input with its send button. */
export function CodeField({ onSend, sendDisabled, ...input }: CodeFieldProps) {
  const { t } = useTranslation()
  return (
    <Field
      label={t('auth.code')}
      name="code"
      inputMode="numeric"
      {...input}
      end={<SendCodeButton disabled={sendDisabled} onSend={onSend} />}
    />
  )
}

export interface NewPasswordFieldsProps {
  /** label of the first field; the second is always the confirmation */
  label: string
  name?: string
  password: string
  confirm: string
  onPasswordChange: (value: string) => void
  onConfirmChange: (value: string) => void
  withPlaceholders?: boolean
}

/** A new password and its confirmation, both filled by password managers as a new password. */
export function NewPasswordFields({
  label,
  name = 'password',
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  withPlaceholders = false,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation()
  return (
    <>
      <Field
        label={label}
        name={name}
        type="password"
        autoComplete="new-password"
        value={password}
        onValueChange={onPasswordChange}
        placeholder={withPlaceholders ? t('auth.placeholders.password') : undefined}
      />
      <Field
        label={t('auth.confirmPassword')}
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onValueChange={onConfirmChange}
        placeholder={withPlaceholders ? t('auth.placeholders.confirmPassword') : undefined}
      />
    </>
  )
}

const MIN_PASSWORD_LENGTH = PASSWORD_LENGTH.min

/** The message key for a password the server would refuse or a confirmation that differs; null when fine. */
export function passwordProblem(
  password: string,
  confirm?: string,
): 'auth.passwordLength' | 'auth.passwordMismatch' | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'auth.passwordLength'
  if (confirm !== undefined && password !== confirm) return 'auth.passwordMismatch'
  return null
}

/**
 * Why a submit button is disabled, as a description the button points at: a screen-reader user on a
 * disabled button hears the reason, not just "dimmed". Nothing while the button can be pressed.
 */
export function useDisabledReason(disabled: boolean | undefined, reason: string | null | undefined) {
  const id = useId()
  const said = disabled && reason ? reason : null
  return {
    describedBy: said ? id : undefined,
    node: said ? (
      <span id={id} className="visually-hidden" data-testid="disabled-reason">
        {said}
      </span>
    ) : null,
  }
}

/**
 * The form's submit button. While busy it is aria-disabled, not disabled, so it keeps focus (a
 * disabled button drops focus to the page body); the form's run ignores a second submission. When
 * disabled it is described by `reason`, the text saying why (e.g. the amount field's error).
 */
export function SubmitButton({
  busy,
  children,
  disabled,
  reason,
}: {
  busy: boolean
  children: ReactNode
  disabled?: boolean
  /** why the button is disabled */
  reason?: string | null
}) {
  const why = useDisabledReason(disabled, reason)
  return (
    <>
      <button
        type="submit"
        className="button button-primary button-block"
        disabled={disabled}
        aria-disabled={busy || undefined}
        aria-busy={busy}
        aria-describedby={why.describedBy}
        onClick={(event) => {
          if (busy) event.preventDefault()
        }}
      >
        {busy ? <span className="spinner spinner-small" /> : children}
      </button>
      {why.node}
    </>
  )
}

const CODE_COOLDOWN_SECONDS = 60

/** Sends a verification code, says so, then counts down before another may be requested. */
function SendCodeButton({ onSend, disabled }: { onSend: () => Promise<unknown>; disabled?: boolean }) {
  const { t } = useTranslation()
  const [secondsLeft, setSecondsLeft] = useState(0)
  const [sending, setSending] = useState(false)
  useEffect(() => {
    if (secondsLeft <= 0) return
    const timer = setTimeout(() => setSecondsLeft((left) => left - 1), 1000)
    return () => clearTimeout(timer)
  }, [secondsLeft])
  const send = async () => {
    setSending(true)
    try {
      await onSend()
      showToast(t('auth.codeSent'))
      setSecondsLeft(CODE_COOLDOWN_SECONDS)
    } catch {
      // the HTTP client already told the user why
    } finally {
      setSending(false)
    }
  }
  // while sending and counting down it is aria-disabled, not disabled: a disabled button under
  // the user's focus dropped it to the page body
  const waiting = sending || secondsLeft > 0
  return (
    <button
      type="button"
      className="button button-text"
      onClick={() => {
        if (!waiting) void send()
      }}
      disabled={disabled}
      aria-disabled={waiting || undefined}
      data-testid="send-code"
    >
      {secondsLeft > 0 ? t('auth.resendIn', { seconds: secondsLeft }) : t('auth.sendCode')}
    </button>
  )
}
