import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { chooseLanguage, i18n, savedLanguage, setLanguage } from '../lib/i18n'
import { refreshCoinList, refreshSettings, settings } from '../lib/settings'
import { applyTheme } from '../lib/theme'
import { AppProviders } from './providers'
import { AppRouter } from './router'
import './styles.css'

// Startup: local settings and coin list (read by their stores on import), choose the language, mount,
// then fetch the server settings and coin list in parallel.
async function start(): Promise<void> {
  applyTheme()
  await setLanguage(chooseLanguage(savedLanguage(), settings.get().LANGUAGES), { save: false })
  const root = document.getElementById('root')
  if (!root) throw new Error('index.html lacks #root')
  const app = createRoot(root)
  // as a transition the first render yields to the browser every few milliseconds instead of
  // holding the main thread in one long task while the whole shell mounts
  startTransition(() =>
    app.render(
      <StrictMode>
        <AppProviders>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    ),
  )
  const [fresh] = await Promise.all([refreshSettings(), refreshCoinList()])
  // with nothing saved the server's default language wins once its settings arrive
  const preferred = chooseLanguage(savedLanguage(), fresh.LANGUAGES)
  if (preferred !== i18n.language) await setLanguage(preferred, { save: false })
}

void start()
