// `npm start`: builds what is missing, starts the sandbox when no upstream is configured, then the
// gateway; one Ctrl-C or SIGTERM stops both.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './free-port.mjs'
import { gatewayProcessEnv } from './gateway-env.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const fromRoot = (...parts) => join(root, ...parts)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const children = new Set()
let stopping = false

function say(message) {
  console.error(`[start] ${message}`)
}

function run(command, args) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status === 0
}

function buildWhatIsMissing() {
  // WEB_DIST names another client directory for the gateway to serve, so web/dist is not needed
  if (!process.env.WEB_DIST && !existsSync(fromRoot('web/dist/index.html'))) {
    say('building the web client (web/dist is missing)')
    if (!run(npm, ['run', 'build', '-w', 'web'])) {
      say('the web client did not build; the gateway will serve a placeholder page instead')
    }
  }
  // the build decides whether the bundles are older than their sources (gateway/build.mjs)
  if (!run(process.execPath, [fromRoot('gateway/build.mjs'), '--if-stale'])) {
    say('the gateway did not build')
    process.exit(1)
  }
}

/** SANDBOX_PORT as `npm run sandbox` reads it; a bad value stops the script naming the variable. */
function sandboxPortFrom(text) {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    say(`SANDBOX_PORT must be a port number from 1 to 65535, not ${JSON.stringify(text)}`)
    process.exit(1)
  }
  return port
}

/** pino-pretty for a terminal: a development dependency, so an install without them logs plain JSON. */
function prettyPrinter() {
  try {
    return createRequire(fromRoot('gateway/package.json'))('pino-pretty')
  } catch {
    return undefined
  }
}

async function waitForPort(port, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited with code ${child.exitCode}`)
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  throw new Error(`the sandbox did not listen on port ${port} within ${timeoutMs / 1000} s`)
}

// children run in their own process group, so a terminal's Ctrl-C reaches them once, from here
// onExit: what to do when the child ends on its own; by default everything stops with it
function start(name, command, args, env, output = 'inherit', onExit = undefined) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', output, 'inherit'],
    detached: true,
  })
  children.add(child)
  child.once('exit', (code, signal) => {
    children.delete(child)
    if (!stopping && onExit) {
      onExit(code, signal)
    } else if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping`)
      stop(typeof code === 'number' && code !== 0 ? code : 1)
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0)
    }
  })
  return child
}

function stop(exitCode = 0) {
  if (stopping) return
  stopping = true
  process.exitCode = exitCode
  if (children.size === 0) process.exit(exitCode)
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      child.kill('SIGTERM')
    }
  }
  // the gateway exits within its own shutdown timeout; this is only a backstop
  setTimeout(() => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    process.exit(exitCode || 1)
  }, 12_000).unref()
}

const SANDBOX_RESTART_MS = [500, 1000, 2000, 5000]
let sandboxRestarts = 0

/** The sandbox on a fixed port; when it exits on its own it starts again there, so the gateway keeps its upstream. */
function startSandbox(port) {
  const startedAt = Date.now()
  return start(
    'sandbox',
    process.execPath,
    [fromRoot('gateway/dist/sandbox.js')],
    { SANDBOX_PORT: String(port) },
    'inherit',
    (code, signal) => {
      // a sandbox that ran for a while starts over at the shortest delay; a crash loop backs off
      if (Date.now() - startedAt > 30_000) sandboxRestarts = 0
      const delay = SANDBOX_RESTART_MS[Math.min(sandboxRestarts++, SANDBOX_RESTART_MS.length - 1)]
      say(`sandbox exited (${signal ?? code}); restarting it on port ${port} in ${delay} ms`)
      setTimeout(() => {
        if (!stopping) startSandbox(port)
      }, delay)
    },
  )
}

process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

buildWhatIsMissing()

const env = gatewayProcessEnv()
if (!process.env.UPSTREAM_URL) {
  const port = process.env.SANDBOX_PORT ? sandboxPortFrom(process.env.SANDBOX_PORT) : await freePort()
  say(`starting the sandbox upstream on port ${port}`)
  const sandbox = startSandbox(port)
  try {
    await waitForPort(port, sandbox, 60_000)
  } catch (error) {
    say(String(error.message ?? error))
    stop(1)
  }
  env.UPSTREAM_URL = `http://127.0.0.1:${port}`
}
if (stopping) await new Promise(() => undefined)

const pinoPretty = process.stdout.isTTY ? prettyPrinter() : undefined
const gateway = start(
  'gateway',
  process.execPath,
  [fromRoot('gateway/dist/main.js')],
  env,
  pinoPretty ? 'pipe' : 'inherit',
)
if (pinoPretty) {
  gateway.stdout.pipe(pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }))
}
say(
  `gateway starting on http://localhost:${process.env.PORT || 8080} (upstream ${env.UPSTREAM_URL ?? process.env.UPSTREAM_URL})`,
)
