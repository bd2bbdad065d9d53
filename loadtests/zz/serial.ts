import { pinSelf } from '../bench/child-process'
import { measureSerialLatency } from '../bench/serial-latency'
import { restTarget, withSandbox, startGatewayOverSandbox, uncachedRequest } from '../bench/rest-targets'
pinSelf('0')
const rounds = Number(process.argv[2] ?? 3)
const extra = process.argv[3]
await withSandbox({ runId: `zz-${process.pid}`, serverCpus: '1', generatorCpus: '0' }, { installMissing: false }, async (ctx) => {
  const sandbox = await ctx.sandbox()
  const names = ['bare node proxy', 'bare fastify proxy', 'gateway proxy (uncached)']
  const targets: Record<string, any> = {}
  for (const name of names) targets[name] = await restTarget(name).start(ctx)
  if (extra) targets['gw-b'] = await startGatewayOverSandbox(ctx, uncachedRequest, { bundle: extra })
  for (let r = 0; r < rounds; r++) {
    const line: string[] = []
    for (const [name, t] of Object.entries(targets)) {
      const s = await measureSerialLatency(t.url, uncachedRequest, 2000, sandbox.url)
      line.push(`${name}: ${s.overheadP50!.toFixed(3)} (p50 ${s.p50.toFixed(3)} direct ${s.direct!.p50.toFixed(3)})`)
    }
    console.log(`round ${r}: ` + line.join(' | '))
  }
  for (const t of Object.values(targets)) await t.stop()
})
process.exit(0)
