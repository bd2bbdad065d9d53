// `npm test`: every tier the README promises, in three lanes that run side by side, since none keeps
// both cores busy on its own (a browser test mostly waits on its pages; the loadtests smoke mostly
// waits out its bench windows). No tier shares a port, a Redis key prefix or a build output with
// another: every server takes port 0, every Redis test its own prefix, the browser stack an in-memory
// bus. Each build output has one writer, first in its lane: web/dist the browser lane's, gateway/dist
// the loadtests lane's (a few seconds; the gateway tier's start-script test, which would build it
// too when missing, comes after lint and types). Each tier's output is printed whole when it ends, under its name.
// `TEST_LANES=1 npm test` runs the same tiers one after another. CONTRIBUTING.md has the figures.
// Each tier's whole output is kept in .artifacts/test-logs, and a failed run ends with what failed.
// Last, the leak check: no process the tiers started may still run (gateway/test/support/check-leftovers.ts).
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { stripVTControlCharacters } from 'node:util'
import { checkLeftovers, newRunDir, RUN_DIR_ENV } from './leak-check.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** A lane is a list of tiers run in order; a tier is a name and an npm script with its arguments. */
const LANES = [
  [
    ['lint', ['run', 'lint']],
    ['types', ['run', 'typecheck']],
    ['alert rules', ['run', 'test:rules']],
    ['shared', ['run', 'test', '-w', 'shared']],
    ['gateway', ['run', 'test', '-w', 'gateway']],
  ],
  [
    ['web build', ['run', 'build', '-w', 'web']],
    ['web', ['run', 'test', '-w', 'web']],
  ],
  [
    ['gateway build', ['run', 'build', '-w', 'gateway']],
    ['loadtests', ['run', 'test', '-w', 'loadtests']],
  ],
]

// every tier's whole output is also kept here, since a CI page may show only the end of the run
const LOG_DIR = '.artifacts/test-logs'
mkdirSync(LOG_DIR, { recursive: true })

// every tier's processes carry this folder in their environment, and its workspaces register in it
// what they start (gateway/test/support/owned-processes.ts), so the leak check finds the suite's own
const runDir = newRunDir()

const started = Date.now()
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`
const results = []

function runTier([name, args]) {
  const tierStarted = Date.now()
  console.log(`[test] ${name}: started at ${seconds(started)}`)
  return new Promise((resolve) => {
    const child = spawn(npm, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '1', [RUN_DIR_ENV]: runDir },
    })
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    child.on('close', (code, signal) => {
      const ok = code === 0
      const whole = Buffer.concat(output)
      writeFileSync(`${LOG_DIR}/${name.replaceAll(' ', '-')}.log`, whole)
      process.stdout.write(`\n[test] ──── ${name} (npm ${args.join(' ')}) ────\n`)
      process.stdout.write(whole)
      console.log(
        `[test] ${name}: ${ok ? 'passed' : `FAILED (${signal ?? `status ${code}`})`} in ${seconds(tierStarted)}`,
      )
      results.push({ name, ok, took: seconds(tierStarted), failures: ok ? [] : failureLines(whole) })
      resolve(ok)
    })
  })
}

/** The lines of a failed tier that name what failed: vitest's failed tests and errors, eslint's and tsc's errors. */
function failureLines(output) {
  const plain = stripVTControlCharacters(output.toString())
  const lines = plain
    .split('\n')
    .filter((line) => /(^\s*(×|FAIL )|error TS|\s error\s|AssertionError|Error:)/.test(line))
  return [...new Set(lines.map((line) => line.trim()))].slice(0, 40)
}

/** Runs a lane's tiers in order; a failed tier stops its lane, not the other one. */
async function runLane(lane) {
  for (const tier of lane) if (!(await runTier(tier))) return
}

const lanes = process.env.TEST_LANES === '1' ? [LANES.flat()] : LANES
await Promise.all(lanes.map(runLane))

const leaked = !checkLeftovers(runDir)

console.log(
  `\n[test] ${results.map(({ name, ok, took }) => `${name} ${ok ? 'ok' : 'FAILED'} ${took}`).join(', ')}`,
)
const tierCount = LANES.flat().length
const failed = results.filter((result) => !result.ok).map((result) => result.name)
for (const { name, failures } of results.filter((result) => !result.ok)) {
  console.log(`[test] ${name} failed at:${failures.map((line) => `\n  ${line}`).join('')}`)
}
const skipped = tierCount - results.length
if (leaked) failed.push('leftover processes')
console.log(
  `[test] ${failed.length ? `FAILED: ${failed.join(', ')}` : 'all passed'}${skipped ? ` (${skipped} not run after a failure)` : ''} in ${seconds(started)}`,
)
process.exit(failed.length || skipped ? 1 : 0)
