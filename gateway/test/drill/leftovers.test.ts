import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { leftovers } from '../support/check-leftovers'
import {
  acceptsConnections,
  removeNestedRun,
  startNestedVitest,
  type NestedRun,
} from '../support/nested-vitest'
import { listeningPorts, type ProcessEntry } from '../support/owned-processes'

// The quick drill made to fail on purpose in a vitest run of its own: once its stack is half built
// (Redis, three gateways, nginx), its worker is killed, as a test time-out or the machine's OOM
// killer would leave it: no afterAll, no close. Afterwards nothing it started may run, listen or
// keep its folder, which is what a leaked stack on a shared machine looked like (issue 42).

const gatewayDir = fileURLToPath(new URL('../..', import.meta.url))
let run: NestedRun | undefined

afterAll(() => {
  if (run) removeNestedRun(run)
})

it(
  'leaves no process, port or folder behind when the quick drill dies midway',
  { timeout: 300_000 },
  async () => {
    const nested = startNestedVitest(gatewayDir, ['test/drill/drill.test.ts'], { DRILL: '', DRILL_ONLY: '' })
    run = nested
    const processes = (): ProcessEntry[] =>
      nested.registered().filter((entry): entry is ProcessEntry => entry.kind === 'process')
    const nginx = (): ProcessEntry | undefined => processes().find((entry) => /\/nginx /.test(entry.command))
    // nginx listening: Redis and the three gateways were started before it
    await expect
      .poll(() => (nginx() ? listeningPorts(nginx()!.pid).length : 0), {
        timeout: 240_000,
        interval: 200,
        message: `the drill never started nginx: ${nested.output()}`,
      })
      .toBeGreaterThan(0)
    const started = processes()
    const ports = started.flatMap((entry) => listeningPorts(entry.pid))
    const folders = nested.registered().flatMap((entry) => (entry.kind === 'dir' ? [entry.path] : []))
    expect(started.filter((entry) => entry.command.includes('gateway/src/main.ts'))).toHaveLength(3)
    expect(started.some((entry) => entry.command.includes('redis-server'))).toBe(true)
    expect(ports.length).toBeGreaterThanOrEqual(5)
    expect(folders.length).toBeGreaterThan(0)

    process.kill(nginx()!.owner, 'SIGKILL')

    expect(await nested.status, nested.output()).not.toBe(0)
    expect(leftovers(nested.runDir)).toEqual([])
    for (const port of ports) expect(await acceptsConnections(port), `port ${port}`).toBe(false)
    for (const folder of folders) expect(existsSync(folder), folder).toBe(false)
  },
)
