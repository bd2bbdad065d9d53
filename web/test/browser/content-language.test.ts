import { describe, expect, it } from 'vitest'
import { PHONE, createFundedAccount, inLanguage, openPage, screenshotPath } from './stack'
import { setUpSuite, signedInPages } from './suite'

// The exchange's own texts follow the client's language: opened in Japanese, the home notice and the
// help articles are Japanese; after a switch to Arabic on the language list, help is Arabic.

const suite = setUpSuite()
const { open, go } = signedInPages(suite)

describe('server texts in the chosen language', () => {
  it('shows the home notice and help in Japanese, and help in Arabic after a switch', async () => {
    const token = await createFundedAccount(suite.stack)
    const page = await open(PHONE, token, inLanguage('ja'))
    await go(page, '/')
    await expect.poll(() => page.locator('.notice-bar a').textContent()).toBe('サンドボックス市場オープン')
    await go(page, '/help')
    const titles = page.locator('a.list-row[href*="helpDetail"]')
    await expect.poll(() => titles.first().textContent()).toContain('入金するには？')

    await go(page, '/langList')
    await page.locator('[data-lang=ar]').click()
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ar')
    // help again, in the same document: it asks again in Arabic rather than showing the cached Japanese
    await go(page, '/help')
    await expect.poll(() => titles.first().textContent()).toContain('كيف أودع؟')
    expect(await page.getByText('入金するには？').count()).toBe(0)
    await page.screenshot({ path: screenshotPath('help-ar-phone') })
  })

  it("keeps each help row's chevron on a German phone, the long questions wrapping beside it", async () => {
    const token = await createFundedAccount(suite.stack)
    const page = await open(PHONE, token, inLanguage('de'))
    await go(page, '/help')
    const rows = page.locator('a.list-row[href*="helpDetail"]')
    await expect.poll(() => rows.count()).toBe(5)
    // every chevron inside its row's box: a long title once pushed it past the screen's edge
    const outside = await rows.evaluateAll((links) =>
      links
        .filter((link) => {
          const row = link.getBoundingClientRect()
          const icon = link.querySelector('svg')?.getBoundingClientRect()
          return !icon || icon.width === 0 || icon.right > row.right || icon.left < row.left
        })
        .map((link) => link.textContent),
    )
    expect(outside).toEqual([])
    await page.screenshot({ path: screenshotPath('help-de-phone') })
  })

  it('opens a first visit from a Dutch browser, whose languages no bundle matches, in English', async () => {
    const { page, context, errors } = await openPage(suite.browser, PHONE, 'nl-NL')
    await page.goto(`${suite.stack.url}/#/login`)
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en')
    await page.locator('form button[type=submit]').waitFor()
    expect(await page.evaluate('navigator.languages[0]')).toBe('nl-NL')
    // nothing was saved: the choice is made again on the next visit, until the user picks one
    expect(await page.evaluate(() => localStorage.getItem('_language'))).toBeNull()
    expect(errors).toEqual([])
    await context.close()
  })
})
