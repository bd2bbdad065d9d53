import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule that keeps features apart, run on sources placed inside the trade feature.

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url))
const insideTrade = `${repositoryRoot}web/src/features/trade/screens/boundary-fixture.tsx`

async function boundaryErrors(source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repositoryRoot })
  const [result] = await eslint.lintText(source, { filePath: insideTrade })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message)
}

describe('feature boundaries', () => {
  it('refuses an import from another feature', async () => {
    const errors = await boundaryErrors(
      "import { OptionTrading } from '../../option/components/option-trading'\nexport const used = OptionTrading\n",
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('a feature must not import another feature')
  }, 60_000)

  it('allows the shared layers and the feature itself', async () => {
    const errors = await boundaryErrors(
      [
        "import { TickerHeader } from '../../../components/ticker-header'",
        "import { tradeHref } from '../../../lib/trade-link'",
        "import { SpotPanel } from '../components/spot-panel'",
        'export const used = [TickerHeader, tradeHref, SpotPanel]',
        '',
      ].join('\n'),
    )
    expect(errors).toEqual([])
  }, 60_000)
})
