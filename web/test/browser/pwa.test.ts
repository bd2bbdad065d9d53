import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { PHONE, openPage } from './stack'
import { readLocale, setUpSuite } from './suite'

// The installable app: a manifest with icons, a service worker the gateway never lets a cache keep,
// and a shell that opens without a network and says so.

const suite = setUpSuite()
const english = readLocale<{ app: { offline: string; updateReady: string; reload: string } }>('en')

/** Resolves once the service worker is active and has cached what the page loaded. */
async function workerReady(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration()
          return (
            registration?.active?.state === 'activated' &&
            (await (await caches.open('assets')).keys()).length > 0
          )
        }),
      { message: 'the service worker has not cached this visit yet' },
    )
    .toBe(true)
}

describe('installable app', () => {
  it('serves the service worker uncached and a manifest with the brand icons', async () => {
    const worker = await fetch(`${suite.stack.url}/sw.js`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('cache-control')).toBe('no-cache')
    const manifest = (await (await fetch(`${suite.stack.url}/manifest.webmanifest`)).json()) as {
      name: string
      display: string
      icons: { src: string; sizes: string }[]
    }
    expect(manifest.display).toBe('standalone')
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
    for (const icon of manifest.icons) {
      const image = await fetch(`${suite.stack.url}${icon.src}`)
      expect(image.headers.get('content-type')).toBe('image/png')
    }
  })

  it('opens offline after one visit, shows the offline notice, and drops it when the network is back', async () => {
    const { context, page, errors } = await openPage(suite.browser, PHONE)
    await context.addInitScript(() => localStorage.setItem('_language', 'en'))
    await page.goto(`${suite.stack.url}/#/login`)
    await page.locator('input[name=username]').waitFor()
    await workerReady(page)
    await context.setOffline(true)
    await page.reload()
    await page.locator('input[name=username]').waitFor()
    await expect(page.getByTestId('offline-notice').textContent()).resolves.toBe(english.app.offline)
    await context.setOffline(false)
    await page.getByTestId('offline-notice').waitFor({ state: 'detached' })
    expect(errors).toEqual([])
    await context.close()
  })

  it('offers a new build once it is installed, and reloads into it when asked', async () => {
    const { context, page, errors } = await openPage(suite.browser, PHONE)
    await context.addInitScript(() => localStorage.setItem('_language', 'en'))
    await page.goto(`${suite.stack.url}/#/login`)
    await page.locator('input[name=username]').waitFor()
    await workerReady(page)
    // a second visit is the first one the worker controls: from then on a new build has to wait
    await page.reload()
    await page.locator('input[name=username]').waitFor()
    await expect(page.evaluate(() => navigator.serviceWorker.controller !== null)).resolves.toBe(true)
    await expect(page.getByTestId('update-prompt').count()).resolves.toBe(0)

    // the next deploy: a service worker that differs by one byte
    const worker = join(suite.stack.webDist, 'sw.js')
    writeFileSync(worker, `${readFileSync(worker, 'utf8')}\n// the next build\n`)
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    const prompt = page.getByTestId('update-prompt')
    await prompt.waitFor({ timeout: 30_000 })
    await expect(prompt.locator('span').textContent()).resolves.toBe(english.app.updateReady)
    // the new build waits: the page keeps running the old one until the user says so
    const before = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state,
    )
    expect(before).toBe('installed')

    await Promise.all([
      page.waitForEvent('load'),
      prompt.getByRole('button', { name: english.app.reload }).click(),
    ])
    await page.locator('input[name=username]').waitFor()
    await expect(page.getByTestId('update-prompt').count()).resolves.toBe(0)
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return {
        waiting: registration?.waiting ?? null,
        controlled: navigator.serviceWorker.controller !== null,
      }
    })
    expect(after).toEqual({ waiting: null, controlled: true })
    expect(errors).toEqual([])
    await context.close()
  })
})
