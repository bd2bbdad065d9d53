// The run folder and leak check shared by `npm test` (scripts/test.mjs) and the runs beside busy
// loops (scripts/beside-busy-cores.mjs): every process of a run carries the folder in its
// environment, and the workspaces register in it what they start (gateway/test/support/owned-processes.ts),
// so the check afterwards finds the suite's own processes and nobody else's.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export const RUN_DIR_ENV = 'TRADEGATE_TEST_RUN_DIR'

export function newRunDir() {
  return mkdtempSync(path.join(tmpdir(), 'tradegate-test-run-'))
}

/** Names (and ends) whatever the run left running, removes its folder; true when nothing was left. */
export function checkLeftovers(runDir) {
  const repoRoot = path.resolve(import.meta.dirname, '..')
  const check = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'gateway/test/support/check-leftovers.ts', runDir],
    { stdio: 'inherit', cwd: repoRoot },
  )
  return check.status === 0
}
