import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { loadtestsDir } from './child-process'
import { optionsFromArgs } from './main'
import type { BenchOptions } from './types'

const run = promisify(execFile)

// `npm run bench -- <flags>` from the repository root goes through two npm scripts; every flag the
// README documents must come out the other end. The harness starts under tsx, which compiles it
// first: on a busy machine that takes tens of seconds, hence the long timeout.
it('passes every documented flag from the root script to the harness', async () => {
  const { stdout } = await run(
    'npm',
    [
      'run',
      'bench',
      '--silent',
      '--',
      '--print-options',
      '--quick',
      '--no-install',
      '--no-pin',
      '--phases',
      'rounds,rest',
      '--clients',
      '300,600',
      '--seconds',
      '2',
      '--systems',
      'bare ws,fastify',
      '--out',
      '/tmp/flags-run.json',
      '--results-md',
      '/tmp/flags-RESULTS.md',
      '--redis-url',
      'redis://127.0.0.1:6390',
    ],
    { cwd: path.resolve(loadtestsDir, '..'), timeout: 60_000 },
  )
  const options = JSON.parse(stdout.trim().split('\n').at(-1)!) as BenchOptions
  expect(options).toMatchObject({
    quick: true,
    installMissing: false,
    pin: false,
    phases: ['rounds', 'rest'],
    clientCounts: [300, 600],
    measureMs: 2000,
    only: ['bare ws', 'fastify'],
    outFile: '/tmp/flags-run.json',
    resultsMd: '/tmp/flags-RESULTS.md',
    redisUrl: 'redis://127.0.0.1:6390',
  })
}, 180_000)

it('a full run writes RESULTS.md by default; a run of less of the bench leaves it alone unless told', () => {
  const report = path.join(loadtestsDir, 'RESULTS.md')
  expect(optionsFromArgs([]).resultsMd).toBe(report)
  // every phase named is still the whole bench
  expect(optionsFromArgs(['--phases', 'sockets,rounds,idle,rest,proxied,uploads']).resultsMd).toBe(report)
  // and one phase short of it is not, whichever phase that is
  expect(optionsFromArgs(['--phases', 'sockets,rounds,rest,proxied,uploads']).resultsMd).toBeUndefined()
  expect(optionsFromArgs(['--quick']).resultsMd).toBeUndefined()
  expect(optionsFromArgs(['--phases', 'rest']).resultsMd).toBeUndefined()
  expect(optionsFromArgs(['--systems', 'hostile']).resultsMd).toBeUndefined()
  expect(optionsFromArgs(['--clients', '1000']).resultsMd).toBeUndefined()
  expect(optionsFromArgs(['--phases', 'rest', '--results-md', '/tmp/partial.md']).resultsMd).toBe(
    '/tmp/partial.md',
  )
})

it('refuses a phase it does not know, naming what it takes', () => {
  expect(() => optionsFromArgs(['--phases', 'sockets,rest,warmup'])).toThrow(
    '--phases takes some of sockets, rounds, idle, rest, proxied, uploads, got "sockets,rest,warmup"',
  )
  // the default: every phase, in their fixed order, with pinning
  expect(optionsFromArgs([])).toMatchObject({
    phases: ['sockets', 'rounds', 'idle', 'rest', 'proxied', 'uploads'],
    pin: true,
  })
})
