import { describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, callApi, createFundedUser, inLanguage, screenshotPath, type Viewport } from './stack'
import { setUpSuite, signedInPages } from './suite'

// Deposit records name their network and transaction (shortened to fit a phone, copied whole), and the
// desktop sidebar reaches every page a phone reaches through its drawer.

const suite = setUpSuite()
const pages = signedInPages(suite)

interface Request {
  coin: string
  amount: string
  chain?: string
  txHash?: string
}

/** A signed-in page in `language` that may read and write the clipboard. */
function signedIn(viewport: Viewport, token: string, language = 'en') {
  return pages.open(viewport, token, async (context) => {
    await inLanguage(language)(context)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.url })
  })
}

describe('deposit records', () => {
  for (const [label, viewport, language] of [
    ['phone, English', PHONE, 'en'],
    ['phone, Arabic', PHONE, 'ar'],
    ['desktop, Japanese', DESKTOP, 'ja'],
  ] as const) {
    it(`show the network and a shortened, copyable transaction hash (${label})`, async () => {
      const user = await createFundedUser(suite.stack)
      const [deposit] = (
        await callApi<{ rows: Request[] }>(suite.stack, '/api/recharge/list?pageSize=20', {}, user.token)
      ).rows
      expect(deposit?.chain).toBe('TRC20')
      const hash = deposit?.txHash ?? ''
      expect(hash).toMatch(/^[0-9a-f]{64}$/)

      const page = await signedIn(viewport, user.token, language)
      await pages.go(page, '/recharge')
      const row = page.getByTestId('recharge-list').locator('li').first()
      await row.getByTestId('request-tx').waitFor()
      expect(await row.getByTestId('request-network').textContent()).toBe('TRC20')
      const shown = (await row.getByTestId('request-tx').textContent()) ?? ''
      expect(shown).toContain(`${hash.slice(0, 6)}…${hash.slice(-4)}`)
      expect(shown).not.toContain(hash)
      // the whole row stays on the screen
      const box = await row.boundingBox()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width)
      await row.getByTestId('copy-tx').click()
      await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(hash)
      await page.screenshot({
        path: screenshotPath(`${viewport === PHONE ? 'phone' : 'desktop'}-${language}-deposit-records`),
      })
    })
  }
})

describe('desktop sidebar', () => {
  it('reaches messages, help, language and identity verification at 1440 px', async () => {
    const user = await createFundedUser(suite.stack)
    const page = await signedIn(DESKTOP, user.token)
    await pages.go(page, '/wallet')
    const sidebar = page.locator('.desktop-sidebar')
    await sidebar.waitFor()
    for (const [menu, hash, screenTestId] of [
      ['message', '#/message', null],
      ['help', '#/help', null],
      ['langList', '#/langList', null],
      ['identity', '#/userauth', 'kyc-review-time'],
    ] as const) {
      const link = sidebar.locator(`[data-menu="${menu}"]`)
      await link.scrollIntoViewIfNeeded()
      expect(await link.isVisible()).toBe(true)
      await link.click()
      await page.waitForFunction((expected) => window.location.hash === expected, hash)
      await page.locator('.app-main .screen').first().waitFor()
      if (screenTestId) await page.getByTestId(screenTestId).first().waitFor()
    }
    await page.screenshot({ path: screenshotPath('desktop-sidebar-identity') })
  })
})
