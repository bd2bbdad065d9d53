import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

// Ports for programs that take their port from outside: `npm start`'s sandbox, and the servers tests and
// the bench start. They come from below the kernel's ephemeral range, not from listen(0): a port is free
// only at the asking, and the program listens on it later (the sandbox again after each restart). An
// ephemeral port can be taken in that gap by any outgoing connection, and a test tier opens thousands
// beside a starting program (an idle-memory test's gateway exited with EADDRINUSE on such a port). A port
// below the range is never handed to a connection, so only another listener could take it.

/** The lowest port handed out: above the well-known and registered ports the machine's services use. */
const LOWEST_PORT = 10_000

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart() {
  try {
    const start = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    )
    if (Number.isInteger(start) && start > LOWEST_PORT) return start
  } catch {
    // not Linux: its default range
  }
  return 32_768
}

/** The first port outgoing connections take theirs from: every port handed out is below it. */
export const EPHEMERAL_START = ephemeralStart()

const HIGHEST_PORT = EPHEMERAL_START - 1

/** Whether `port` can be listened on now. */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** A free port at most `highest`, picked at random so programs asking side by side rarely pick alike. */
async function freePortUpTo(highest) {
  if (highest < LOWEST_PORT) throw new Error(`no ports between ${LOWEST_PORT} and ${highest} to hand out`)
  for (;;) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (highest - LOWEST_PORT + 1))
    if (await isFree(port)) return port
  }
}

/** A port free at the time of asking, outside the range outgoing connections take theirs from. */
export function freePort() {
  return freePortUpTo(HIGHEST_PORT)
}

/**
 * A free port whose companion `port + offset` is free too, for a program that listens on both: a
 * Redis Cluster node takes its cluster bus at port + 10000, and failed to start when that was taken.
 */
export async function freePortWithCompanion(offset) {
  for (;;) {
    const port = await freePortUpTo(HIGHEST_PORT - offset)
    if (await isFree(port + offset)) return port
  }
}
