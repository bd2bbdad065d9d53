import type { ReactNode } from 'react'
import { I18nextProvider } from 'react-i18next'
import { SWRConfig } from 'swr'
import { i18n } from '../lib/i18n'
import { swrConfig } from '../lib/swr'

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <SWRConfig value={swrConfig}>{children}</SWRConfig>
    </I18nextProvider>
  )
}
