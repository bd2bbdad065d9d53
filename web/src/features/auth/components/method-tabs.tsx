import { useTranslation } from '../../../lib/i18n'
import type { LoginMethod } from '@tradegate/shared'
import { Field, type FieldProps } from '../../../components/form'

export const LOGIN_METHODS: readonly LoginMethod[] = ['email', 'phone', 'account', 'address']

/** Switches between the sign-in methods the settings allow; hidden when only one is open. */
export function MethodTabs({
  methods,
  value,
  onChange,
}: {
  methods: readonly LoginMethod[]
  value: LoginMethod
  onChange: (method: LoginMethod) => void
}) {
  const { t } = useTranslation()
  if (methods.length < 2) return null
  return (
    <div className="segmented" role="group" aria-label={t('auth.method')}>
      {methods.map((method) => (
        <button
          key={method}
          type="button"
          aria-pressed={value === method}
          onClick={() => onChange(method)}
          data-method={method}
        >
          {t(`auth.methods.${method}`)}
        </button>
      ))}
    </div>
  )
}

function usernameInputType(method: LoginMethod): 'email' | 'tel' | 'text' {
  return method === 'email' ? 'email' : method === 'phone' ? 'tel' : 'text'
}

/** The username input of the chosen sign-in method: its label, keyboard and example. */
export function UsernameField({
  method,
  ...input
}: Omit<FieldProps, 'label' | 'name'> & { method: LoginMethod }) {
  const { t } = useTranslation()
  return (
    <Field
      label={t(`auth.methods.${method}`)}
      name="username"
      type={usernameInputType(method)}
      autoComplete="username"
      placeholder={t(`auth.placeholders.${method}`)}
      {...input}
    />
  )
}
