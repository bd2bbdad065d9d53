import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule that keeps every figure on the one display rule (shared/src/display.ts), run on
// sources placed where screens live: a screen that rounds or formats a number itself fails lint.

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url))
const inTradeComponents = `${repositoryRoot}web/src/features/trade/components/display-fixture.tsx`
const inSharedComponents = `${repositoryRoot}web/src/components/display-fixture.tsx`
const inFeatureLib = `${repositoryRoot}web/src/features/trade/lib/display-fixture.ts`

// one linter for the file: it loads the repository's config once, on the first test's generous bound,
// and the later tests then take a fraction of a second however loaded the machine
const eslint = new ESLint({ cwd: repositoryRoot })

async function displayErrors(source: string, filePath = inTradeComponents): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath })
  return (result?.messages ?? [])
    .filter((message) => ['no-restricted-syntax', 'no-restricted-imports'].includes(message.ruleId ?? ''))
    .map((message) => message.message)
}

const header = "import { Decimal } from 'decimal.js'\nimport { toDecimal } from '@tradegate/shared'\n"

describe('the one display rule', () => {
  it.each([
    ['toFixed with places', 'export const shown = toDecimal(1).toFixed(2)'],
    ['toDecimalPlaces', 'export const shown = toDecimal(1).toDecimalPlaces(2).toFixed()'],
    ['a rounding mode', 'export const mode = Decimal.ROUND_DOWN'],
    ['significant digits', 'export const shown = toDecimal(1).toSignificantDigits(4).toFixed()'],
    ['a float toFixed', 'export const shown = (0.1).toFixed(2)'],
    ['toLocaleString', 'export const shown = (1234.5).toLocaleString()'],
    ['a number format of its own', "export const shown = new Intl.NumberFormat('en').format(1)"],
  ])(
    'refuses a screen formatting a figure by %s',
    async (_case, line) => {
      for (const filePath of [inTradeComponents, inSharedComponents]) {
        const errors = await displayErrors(
          `${header}${line}\nexport const used = [Decimal, toDecimal]\n`,
          filePath,
        )
        expect(errors.length, filePath).toBeGreaterThan(0)
        expect(errors[0]).toContain('display rule')
      }
    },
    60_000,
  )

  it('refuses the price and percent formatters that skip the reader-bound ones', async () => {
    const errors = await displayErrors(
      "import { formatPrice, formatPercent } from '@tradegate/shared'\nexport const used = [formatPrice, formatPercent]\n",
    )
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('useFormatters')
  }, 60_000)

  it('allows the display rule itself and exact text of a value to send', async () => {
    const errors = await displayErrors(
      [
        "import { showPnl, toDecimal } from '@tradegate/shared'",
        "import { useFormatters } from '../../../lib/use-formatters'",
        'export function useShown() {',
        '  const { pnl, price } = useFormatters()',
        "  return [pnl('-0.169278'), price('150.6159', 2), showPnl(1), toDecimal('1.5').toFixed()]",
        '}',
        '',
      ].join('\n'),
    )
    expect(errors).toEqual([])
  }, 60_000)

  it('lets a feature lib round what it sends (a limit premium, a book level)', async () => {
    const errors = await displayErrors(
      `${header}export const limit = toDecimal('1.23456').toDecimalPlaces(4, Decimal.ROUND_UP).toFixed()\n`,
      inFeatureLib,
    )
    expect(errors).toEqual([])
  }, 60_000)
})
