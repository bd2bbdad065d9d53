import { describe, expect, it } from 'vitest'
import { PHONE, createFundedAccount } from './stack'
import { setUpSuite, signedInPages } from './suite'

// The home page's rolling notice answers after the coin cards under it are drawn. Its place is held
// until then, so the cards, the menu and the market list do not move down when it arrives (the
// layout shift Lighthouse counted on the home page).

const suite = setUpSuite()
const { open, go } = signedInPages(suite)

describe('home notice', () => {
  it("holds the rolling notice's place while it loads, so the cards under it do not move", async () => {
    const token = await createFundedAccount(suite.stack)
    let release = () => undefined as void
    const held = new Promise<void>((resolve) => (release = resolve))
    const page = await open(PHONE, token, async (context) => {
      // the notice list answers only when the test says so
      await context.route(/\/api\/notice\/list\?key=ROLL_NOTICE/, async (route) => {
        await held
        await route.continue()
      })
    })
    await go(page, '/')
    const cards = page.locator('.coin-cards')
    await page.getByTestId('notice-bar-pending').waitFor()
    await cards.waitFor()
    const before = await cards.boundingBox()
    release()
    await page.locator('.notice-bar a').waitFor()
    expect(await page.getByTestId('notice-bar-pending').count()).toBe(0)
    const after = await cards.boundingBox()
    expect(before).not.toBeNull()
    expect(after?.y).toBe(before?.y)
  })
})
