import { describe, expect, it } from 'vitest'
import { BUNDLE_LANGUAGES } from '@tradegate/shared'
import { localiseDecimal } from '../../src/lib/intl'
import { PHONE, createFundedAccount } from './stack'
import { setUpSuite, signedInPages } from './suite'

// Figures in the bundled languages are written from a table of each language's symbols, not through
// Intl.NumberFormat: a page's first Intl formatter loads ICU's number data, a long task on a phone. Held
// here in Chromium: the table writes what Chromium's own Intl writes, and the trade screen shows its
// prices without making any Intl formatter.

const suite = setUpSuite()
const { open, go } = signedInPages(suite)

const SAMPLES = [
  '0',
  '-0',
  '-0.5',
  '7',
  '1234',
  '12345.678',
  '-1234567.50',
  '000123.4500',
  '98765432109876543210.000000001',
]

describe('decimal symbols', () => {
  it("write each bundled language's figures as Chromium's Intl does", async () => {
    const page = await suite.browser.newPage()
    try {
      const chromium = await page.evaluate(
        ({ languages, samples }) =>
          languages.map((language) =>
            samples.map((text) => {
              const decimals = text.split('.')[1]?.length ?? 0
              const format = new Intl.NumberFormat(language, {
                minimumFractionDigits: decimals,
                maximumFractionDigits: decimals,
                numberingSystem: 'latn',
              })
              return format.format(text as Intl.StringNumericLiteral)
            }),
          ),
        { languages: [...BUNDLE_LANGUAGES], samples: SAMPLES },
      )
      const ours = BUNDLE_LANGUAGES.map((language) => SAMPLES.map((text) => localiseDecimal(text, language)))
      expect(ours).toEqual(chromium)
    } finally {
      await page.close()
    }
  })

  it('let the trade screen show its prices without making an Intl formatter', async () => {
    const token = await createFundedAccount(suite.stack)
    const page = await open(PHONE, token, async (context) => {
      await context.addInitScript(() => {
        const made: string[] = []
        window.intlMade = made
        for (const name of ['NumberFormat', 'DateTimeFormat'] as const) {
          const original = Intl[name]
          const counted = new Proxy(original, {
            construct: (target, args) => (made.push(name), Reflect.construct(target, args) as object),
            apply: (target, self, args) => (made.push(name), Reflect.apply(target, self, args) as unknown),
          })
          Object.defineProperty(Intl, name, { value: counted })
        }
      })
    })
    await go(page, '/trade?id=1&componentName=3')
    await expect.poll(() => page.getByTestId('ticker-price').textContent()).toMatch(/\d/)
    await page.locator('.order-book .num').first().waitFor()
    expect(await page.evaluate(() => window.intlMade)).toEqual([])
  })
})
