import { useTranslation } from 'react-i18next'
import type { LoginMethod } from '@tradegate/shared'

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

export function usernameInputType(method: LoginMethod): 'email' | 'tel' | 'text' {
  return method === 'email' ? 'email' : method === 'phone' ? 'tel' : 'text'
}
