import WebSocket from 'ws'

// The heap a Node process keeps alive: what is left in use after a full collection. Read through the
// process's inspector, which opens only when asked (SIGUSR1), so the process ran without it until then;
// it must have been started with `--inspect-port=127.0.0.1:<port>` (inspectorFlag). Used by the idle-heap
// test and by the bench's idle phase, on the gateway and on the floors alike.

/** The flag that names where a process's inspector listens once SIGUSR1 opens it. */
export const inspectorFlag = (port: number): string => `--inspect-port=127.0.0.1:${port}`

const OPEN_DEADLINE_MS = 30_000

/** Sends one inspector command and resolves with its result. */
function inspectorCall<T>(socket: WebSocket, id: number, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: T; error?: { message: string } }
      if (message.id !== id) return
      socket.off('message', onMessage)
      if (message.error) reject(new Error(`${method}: ${message.error.message}`))
      else resolve(message.result!)
    }
    socket.on('message', onMessage)
    socket.send(JSON.stringify({ id, method, params }))
  })
}

/** Opens the inspector of `pid` (listening on `port` once opened) and resolves with its debugger URL. */
async function openInspector(pid: number, port: number): Promise<string> {
  process.kill(pid, 'SIGUSR1')
  const deadline = Date.now() + OPEN_DEADLINE_MS
  for (;;) {
    try {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
        webSocketDebuggerUrl?: string
      }>
      const url = targets[0]?.webSocketDebuggerUrl
      if (url) return url
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`the inspector of ${pid} did not open on port ${port} within ${OPEN_DEADLINE_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * `count` readings of the process's live heap in MiB, a second apart, each after a full collection: each
 * also holds what is in flight at its moment (the feed's latest frames), so callers judge the least.
 */
export async function liveHeapReadings(pid: number, inspectPort: number, count: number): Promise<number[]> {
  const socket = new WebSocket(await openInspector(pid, inspectPort))
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let id = 0
  const evaluate = async (expression: string): Promise<number> => {
    const { result } = await inspectorCall<{ result: { value: number } }>(socket, ++id, 'Runtime.evaluate', {
      expression,
      returnByValue: true,
    })
    return result.value
  }
  try {
    // the port was free when the process started; make sure it is that process's inspector answering
    const answering = await evaluate('process.pid')
    if (answering !== pid) throw new Error(`port ${inspectPort} answers for process ${answering}, not ${pid}`)
    const readings: number[] = []
    while (readings.length < count) {
      if (readings.length > 0) await new Promise((resolve) => setTimeout(resolve, 1000))
      await inspectorCall(socket, ++id, 'HeapProfiler.collectGarbage')
      readings.push((await evaluate('process.memoryUsage().heapUsed')) / 2 ** 20)
    }
    return readings
  } finally {
    socket.close()
  }
}
