import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  /** content at the end of the input, e.g. a send-code button */
  end?: ReactNode
}

export function Field({ label, end, id, ...input }: FieldProps) {
  const inputId = id ?? `field-${input.name ?? label}`
  return (
    <label className="field" htmlFor={inputId}>
      <span className="field-label">{label}</span>
      <span className="field-control">
        <input id={inputId} {...input} />
        {end}
      </span>
    </label>
  )
}

export function SubmitButton({
  busy,
  children,
  disabled,
}: {
  busy: boolean
  children: ReactNode
  disabled?: boolean
}) {
  return (
    <button
      type="submit"
      className="button button-primary button-block"
      disabled={busy || disabled}
      aria-busy={busy}
    >
      {busy ? <span className="spinner spinner-small" /> : children}
    </button>
  )
}

const CODE_COOLDOWN_SECONDS = 60

/** Sends a verification code, then counts down before another may be requested. */
export function SendCodeButton({ onSend, disabled }: { onSend: () => Promise<unknown>; disabled?: boolean }) {
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
      setSecondsLeft(CODE_COOLDOWN_SECONDS)
    } catch {
      // the HTTP client already told the user why
    } finally {
      setSending(false)
    }
  }
  return (
    <button
      type="button"
      className="button button-text"
      onClick={() => void send()}
      disabled={disabled || sending || secondsLeft > 0}
      data-testid="send-code"
    >
      {secondsLeft > 0 ? t('auth.resendIn', { seconds: secondsLeft }) : t('auth.sendCode')}
    </button>
  )
}

/** Runs a submit handler once at a time; its errors were already shown by the HTTP client. */
export function useSubmit<A extends unknown[]>(handler: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false)
  const run = async (...args: A) => {
    if (busy) return
    setBusy(true)
    try {
      await handler(...args)
    } catch {
      // ApiError: the user has seen the message already
    } finally {
      setBusy(false)
    }
  }
  return { busy, run }
}
