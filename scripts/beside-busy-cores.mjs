// Runs a command beside busy loops that hold every core, as a loaded CI machine does, then stops
// the loops: `node scripts/beside-busy-cores.mjs <command> [args…]` (BUSY_LOOPS sets how many; the
// default is one per core). The loops run at the same priority as the command, so the command gets
// about a third of the CPU it would get alone on two cores. Like `npm test`, the run carries a run
// folder in its environment and ends with the leak check, so a run that passes or fails leaves
// nothing running, and anything left fails it by name. Exits with the command's status, or 1 when
// the command passed but left processes behind.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { checkLeftovers, newRunDir, RUN_DIR_ENV } from './leak-check.mjs'

const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('usage: node scripts/beside-busy-cores.mjs <command> [args…]')
  process.exit(2)
}

const loopCount = Number(process.env.BUSY_LOOPS ?? availableParallelism())
const loops = Array.from({ length: loopCount }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
)
console.error(
  `[busy] ${loopCount} busy loops (pids ${loops.map((loop) => loop.pid).join(', ')}) beside: ${command} ${args.join(' ')}`,
)

function stopLoops() {
  for (const loop of loops) if (loop.exitCode === null) loop.kill('SIGKILL')
}

// inside `npm test` the run folder and its leak check are the caller's
const ownRunDir = process.env[RUN_DIR_ENV] ? null : newRunDir()
const started = Date.now()
const child = spawn(command, args, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: ownRunDir ? { ...process.env, [RUN_DIR_ENV]: ownRunDir } : process.env,
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    child.kill(signal)
    stopLoops()
  })
}
// a command that cannot start (not on PATH) must not leave the loops running
child.on('error', (error) => {
  stopLoops()
  console.error(`[busy] ${command} did not start: ${error.message}`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  stopLoops()
  console.error(
    `[busy] ${command} ended (${signal ?? `status ${code}`}) after ${((Date.now() - started) / 1000).toFixed(0)} s`,
  )
  const clean = ownRunDir ? checkLeftovers(ownRunDir) : true
  if (ownRunDir && clean) console.error('[busy] leak check: nothing left running')
  const status = code ?? 1
  process.exit(status !== 0 ? status : clean ? 0 : 1)
})
