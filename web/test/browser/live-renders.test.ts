import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createFundedAccount, PHONE } from './stack'
import { setUpSuite, signedInPages } from './suite'

// How live values reach the screen on the trade page: a flush re-renders the book's levels whose
// figures changed and no other, and a pair switched to never shows the last pair's figures.

const suite = setUpSuite()
const pages = signedInPages(suite)
let token = ''

beforeAll(async () => {
  token = await createFundedAccount(suite.stack)
})

/** "68,123.45" -> 68123.45; "--" and nothing -> 0 */
function numberIn(text: string | null): number {
  return Number((text ?? '').replace(/[^\d.]/g, '')) || 0
}

/**
 * Run in the page before the app loads: stands in for React DevTools' hook, so React reports each
 * commit, and counts the book levels (the component drawing an `li` of `.book-row`) that rendered,
 * those that rendered with the very props they had, and those React skipped. A subtree React skipped
 * keeps its old fibers (flags included), so, as DevTools does, a fiber whose child list is the one it
 * had rendered nothing under it.
 */
const COUNT_BOOK_LEVEL_RENDERS = `(() => {
  const PERFORMED_WORK = 1
  const counts = { rendered: 0, unchanged: 0, skipped: 0 }
  const isBookLevel = (fiber) =>
    typeof fiber.type !== 'string' && fiber.child?.type === 'li' &&
    fiber.child.child?.stateNode?.classList?.contains('book-row')
  const sameProps = (a, b) =>
    Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((key) => Object.is(a[key], b[key]))
  const walk = (fiber, fresh) => {
    for (let child = fiber.child; child; child = child.sibling) {
      if (isBookLevel(child) && child.alternate) {
        if (!fresh || (child.flags & PERFORMED_WORK) === 0) counts.skipped++
        else {
          counts.rendered++
          if (sameProps(child.memoizedProps, child.alternate.memoizedProps)) counts.unchanged++
        }
      }
      walk(child, fresh && !(child.alternate && child.child === child.alternate.child))
    }
  }
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    inject: () => 1,
    onCommitFiberRoot: (_id, root) => walk(root.current, true),
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
  }
  window.__bookLevelRenders = counts
})()`

/** Run in the page: records, on every change of the DOM, the pair's name, its price and best bid. */
const RECORD_PAIR_STATES = `(() => {
  const seen = []
  const record = () => {
    const header = document.querySelector('[data-testid=ticker-header]')
    seen.push({
      name: header?.querySelector('.ticker-name')?.textContent ?? '',
      price: header?.querySelector('[data-testid=ticker-price]')?.textContent ?? '',
      bid: document.querySelector('[data-testid=book-bid]')?.getAttribute('data-price') ?? '',
    })
  }
  record()
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
  window.__pairStates = seen
})()`

interface PairState {
  name: string
  price: string
  bid: string
}

async function openTrade(page: Page, symbol: string): Promise<void> {
  await pages.go(page, `/trade?id=1&componentName=3&symbol=${symbol}`)
  await expect
    .poll(async () => numberIn(await page.getByTestId('ticker-price').textContent()))
    .toBeGreaterThan(0)
  await page.getByTestId('book-bid').first().waitFor()
}

describe('live values on the trade page', () => {
  it('a flush re-renders the book levels whose figures changed, and only those', async () => {
    const page = await pages.open(PHONE, token)
    await page.addInitScript({ content: COUNT_BOOK_LEVEL_RENDERS })
    await openTrade(page, 'btcusdt')
    const counts = () => page.evaluate<Record<string, number>>('window.__bookLevelRenders')
    // the book keeps moving: levels re-render, and commits of other live values leave levels alone
    await expect.poll(async () => (await counts()).rendered).toBeGreaterThan(50)
    await expect.poll(async () => (await counts()).skipped).toBeGreaterThan(50)
    // a level rendered again with the figures it already showed is work a flush need not do
    expect((await counts()).unchanged).toBe(0)
  })

  it("a pair switched to shows its own price and book, never the last pair's beside its name", async () => {
    const page = await pages.open(PHONE, token)
    await openTrade(page, 'btcusdt')
    await page.evaluate(RECORD_PAIR_STATES)
    await page.getByTestId('pair-picker').click()
    await page.getByTestId('pair-list').locator('[data-symbol=ethusdt]').click()
    const name = page.getByTestId('ticker-header').locator('.ticker-name')
    await expect.poll(() => name.textContent()).toBe('ETH/USDT')
    // both the new pair's price and its book arrive
    await expect
      .poll(async () => numberIn(await page.getByTestId('ticker-price').textContent()))
      .toBeGreaterThan(0)
    const bestBid = async () =>
      numberIn(await page.getByTestId('book-bid').first().getAttribute('data-price'))
    const ethPrice = numberIn(await page.getByTestId('ticker-price').textContent())
    await expect.poll(bestBid).toBeGreaterThan(ethPrice / 2)
    await expect.poll(bestBid).toBeLessThan(ethPrice * 2)
    const seen = await page.evaluate<PairState[]>('window.__pairStates')
    const btcPrices = seen.filter((state) => state.name === 'BTC/USDT').map((state) => numberIn(state.price))
    const lowestBtc = Math.min(...btcPrices.filter((value) => value > 0))
    const eth = seen.filter((state) => state.name === 'ETH/USDT')
    expect(eth.length).toBeGreaterThan(0)
    // a BTC figure is many times an ETH one: one beside ETH/USDT would be the last pair's
    expect(eth.filter((state) => numberIn(state.price) >= lowestBtc / 2)).toEqual([])
    expect(eth.filter((state) => numberIn(state.bid) >= lowestBtc / 2)).toEqual([])
  })
})
