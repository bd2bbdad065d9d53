import { connect } from 'node:net'
import { randomBytes } from 'node:crypto'

// A socket upgrade written by hand, so a test reads exactly what the gateway answered: the status
// line, headers and body of a refusal, or a reset connection.

export interface UpgradeAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** the connection was reset instead of answered */
  reset: boolean
}

export interface RawUpgradeOptions {
  headers?: Record<string, string>
  /** the source address, e.g. 127.0.0.2, to stand for another client */
  localAddress?: string
}

export function rawUpgrade(
  port: number,
  path: string,
  options: RawUpgradeOptions = {},
): Promise<UpgradeAnswer> {
  const headers = {
    host: `127.0.0.1:${port}`,
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': randomBytes(16).toString('base64'),
    ...options.headers,
  }
  const head = [
    `GET ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: options.localAddress })
    const chunks: Buffer[] = []
    let reset = false
    let answer: UpgradeAnswer | null = null
    const parse = (): UpgradeAnswer | null => {
      const text = Buffer.concat(chunks).toString()
      const headEnd = text.indexOf('\r\n\r\n')
      if (headEnd < 0) return null
      const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const status = Number(statusLine.split(' ')[1] ?? 0)
      const body = text.slice(headEnd + 4)
      // a proxy may keep the connection open after the answer: the body's length says when it is whole
      if (status !== 101 && Buffer.byteLength(body) < Number(headers['content-length'] ?? 0)) return null
      return { status, headers, body, reset: false }
    }
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      answer ??= parse()
      if (answer) socket.destroy()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') reset = true
      else reject(error)
    })
    socket.on('close', () => {
      resolve(answer ?? { ...(parse() ?? { status: 0, headers: {}, body: '' }), reset })
    })
    socket.write(`${head.join('\r\n')}\r\n\r\n`)
  })
}
