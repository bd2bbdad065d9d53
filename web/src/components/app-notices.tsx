import { useSyncExternalStore } from 'react'
import { useTranslation } from '../lib/i18n'
import { useRegisterSW } from 'virtual:pwa-register/react'

// Two notices about the app itself, above every screen: the network is gone, and a new build is ready.

function subscribeToNetwork(onChange: () => void): () => void {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeToNetwork,
    () => navigator.onLine,
    () => true,
  )
}

/** Shown while the browser is offline; data and the live feed come back by themselves when it is not. */
function OfflineNotice() {
  const { t } = useTranslation()
  if (useOnline()) return null
  return (
    <div className="app-notice" role="status" data-testid="offline-notice">
      {t('app.offline')}
    </div>
  )
}

/** Must match the runtime cache of /assets/ in vite.config.ts. */
const ASSET_CACHE = 'assets'

/** Whether the service worker served this page, and so its files: read once, before a claim could. */
const controlledAtLoad = typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller)

/**
 * The first visit loads its screen and language before the service worker runs, so nothing caught
 * them on the way; they are put in the asset cache once it is active, and a reload offline finds them.
 * A page the worker served had every file caught by its runtime cache already, so it adds none.
 */
async function cacheLoadedAssets(): Promise<void> {
  if (controlledAtLoad) return
  await navigator.serviceWorker.ready
  const loaded = performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
  const cache = await caches.open(ASSET_CACHE)
  // one file at a time: some forty adds started at once held the main thread for one long task
  for (const url of loaded) await cache.add(url.pathname).catch(() => undefined)
}

/** A new build is installed in the background and waits for the user to reload into it. */
function UpdatePrompt() {
  const { t } = useTranslation()
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // registered once the page has loaded: the registration's own work then stays out of the task
    // that mounts the first screen
    immediate: false,
    onRegisteredSW: () => void cacheLoadedAssets(),
  })
  if (!needRefresh) return null
  return (
    <div className="app-notice" role="status" data-testid="update-prompt">
      <span>{t('app.updateReady')}</span>
      <button type="button" className="app-notice-action" onClick={() => void updateServiceWorker(true)}>
        {t('app.reload')}
      </button>
    </div>
  )
}

export function AppNotices() {
  return (
    <>
      <OfflineNotice />
      <UpdatePrompt />
    </>
  )
}
