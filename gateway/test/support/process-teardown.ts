import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { endRegistered, processStat, REGISTRY_ENV, RUN_DIR_ENV } from './owned-processes'

// Vitest global setup of every workspace that starts processes: a registry folder of its own for its
// workers (inherited through REGISTRY_ENV), and at the end of the run, whatever its files left
// running is ended as a group and their temporary folders removed, however the files ended (a
// failed assertion, a thrown hook, a time-out, a killed worker). Inside `npm test` the registry sits
// in the run's folder, which the leak check reads afterwards and then removes; on its own it is a
// temporary folder removed here.

export default function setup(): () => Promise<void> {
  const runDir = process.env[RUN_DIR_ENV]
  if (runDir) mkdirSync(runDir, { recursive: true })
  const registry = mkdtempSync(path.join(runDir ?? tmpdir(), 'tradegate-registry-'))
  process.env[REGISTRY_ENV] = registry
  return async () => {
    // the workers (this process's own children) carry the registry too, and are vitest's to end
    const ended = await endRegistered(registry, (pid) => processStat(pid)?.ppid === process.pid)
    if (ended.length) console.warn(`[teardown] ended what the tests left running:\n  ${ended.join('\n  ')}`)
    if (!runDir) rmSync(registry, { recursive: true, force: true })
  }
}
