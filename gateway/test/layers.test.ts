import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule that keeps the gateway's layers pointing one way, run on sources placed in each layer.

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url))
const LAYER_RULE = 'import-x/no-restricted-paths'

async function layerErrors(source: string, fileInGatewaySrc: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repositoryRoot })
  const filePath = `${repositoryRoot}gateway/src/${fileInGatewaySrc}`
  const [result] = await eslint.lintText(source, { filePath })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === LAYER_RULE)
    .map((message) => message.message)
}

describe('gateway layers', () => {
  it('refuses a plugin importing from api/ or live/', async () => {
    const errors = await layerErrors(
      [
        "import { adminPlugin } from '../../api/admin'",
        "import { livePlugin } from '../../live/plugin'",
        'export const used = [adminPlugin, livePlugin]',
        '',
      ].join('\n'),
      'plugins/app/layer-fixture.ts',
    )
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('plugins/ sits under upstream/, api/ and live/')
  }, 60_000)

  it('refuses lib/ importing any other part of the gateway', async () => {
    const errors = await layerErrors(
      "import { metricsPlugin } from '../plugins/app/metrics'\nexport const used = metricsPlugin\n",
      'lib/layer-fixture.ts',
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('lib/ is the bottom layer')
  }, 60_000)

  it('refuses api/ and live/ importing each other', async () => {
    const inApi = await layerErrors(
      "import { TopicHub } from '../live/hub'\nexport const used = TopicHub\n",
      'api/layer-fixture.ts',
    )
    const inLive = await layerErrors(
      "import { proxyCall } from '../api/proxy'\nexport const used = proxyCall\n",
      'live/layer-fixture.ts',
    )
    expect(inApi).toHaveLength(1)
    expect(inLive).toHaveLength(1)
    expect([...inApi, ...inLive].every((error) => error.includes('api/ and live/ sit side by side'))).toBe(
      true,
    )
  }, 60_000)

  it('refuses upstream/ importing api/ or live/', async () => {
    const errors = await layerErrors(
      [
        "import { proxyCall } from '../api/proxy'",
        "import { TopicHub } from '../live/hub'",
        'export const used = [proxyCall, TopicHub]',
        '',
      ].join('\n'),
      'upstream/layer-fixture.ts',
    )
    expect(errors).toHaveLength(2)
    expect(errors[0]).toContain('upstream/ sits under api/ and live/')
  }, 60_000)

  it('refuses plugins/ and lib/ importing upstream/', async () => {
    const source = "import { Upstream } from '../../upstream/upstream'\nexport const used = Upstream\n"
    expect(await layerErrors(source, 'plugins/app/layer-fixture.ts')).toHaveLength(1)
    expect(
      await layerErrors(
        "import { Upstream } from '../upstream/upstream'\nexport const used = Upstream\n",
        'lib/layer-fixture.ts',
      ),
    ).toHaveLength(1)
  }, 60_000)

  it('refuses lib/ importing the configuration, which sits above every layer', async () => {
    const errors = await layerErrors(
      "import type { GatewayConfig } from '../config'\nexport type Used = GatewayConfig\n",
      'lib/layer-fixture.ts',
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('lib/ is the bottom layer')
  }, 60_000)

  it('allows each layer to import the ones under it', async () => {
    const inPlugin = await layerErrors(
      "import { errorBody } from '../../lib/errors'\nexport const used = errorBody\n",
      'plugins/app/layer-fixture.ts',
    )
    const inApi = await layerErrors(
      [
        "import { errorBody } from '../lib/errors'",
        "import { compressPlugin } from '../plugins/external/compress'",
        'export const used = [errorBody, compressPlugin]',
        '',
      ].join('\n'),
      'api/layer-fixture.ts',
    )
    const inUpstream = await layerErrors(
      "import type { Metrics } from '../plugins/app/metrics'\nexport type Used = Metrics\n",
      'upstream/layer-fixture.ts',
    )
    const inLive = await layerErrors(
      "import { Upstream } from '../upstream/upstream'\nexport const used = Upstream\n",
      'live/layer-fixture.ts',
    )
    expect(inPlugin).toEqual([])
    expect(inApi).toEqual([])
    expect(inUpstream).toEqual([])
    expect(inLive).toEqual([])
  }, 60_000)
})
