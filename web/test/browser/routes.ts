import type { Page } from 'playwright-core'
import { readFileSync } from 'node:fs'

// The router's paths, read from its source, and the wait for a screen to settle: what every walk of
// all the screens shares.

const routesSource = readFileSync(new URL('../../src/app/routes.ts', import.meta.url), 'utf8')

/** Every path of the router, in its order. */
export const PATHS = [...routesSource.matchAll(/path: '([^']+)'/g)].map((match) => match[1] as string)

/** A route as a browser opens it: a path parameter filled in, a screen's required query given. */
export function routeOf(path: string): string {
  const url = path.replace(':id', '1')
  return path === '/flashExchange' ? `${url}?from=usdt&to=btc` : url
}

/** The screen shown, its requests done and its loading placeholder gone (if it goes within 5 s). */
export async function screenLoaded(page: Page): Promise<void> {
  await page.locator('.app-main > *:visible').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page
    .locator('.loading-block')
    .first()
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => undefined)
}
