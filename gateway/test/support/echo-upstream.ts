import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

// A bare upstream that records every REST call exactly as it arrived (request line, headers, body
// bytes) and answers each with an empty success, to see what the gateway sent and nothing else.

export interface EchoedRequest {
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface EchoUpstream {
  url: string
  /** the calls under /api/ received since the start or the last clear, oldest first */
  readonly requests: readonly EchoedRequest[]
  clear(): void
  close(): Promise<void>
}

/** `responseHeaders` go on every answer, beside its JSON content type. */
export async function startEchoUpstream(responseHeaders: OutgoingHttpHeaders = {}): Promise<EchoUpstream> {
  let requests: EchoedRequest[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      // the gateway's live feed also knocks here; only REST calls are recorded
      if (request.url?.startsWith('/api/'))
        requests.push({ url: request.url, headers: request.headers, body: Buffer.concat(chunks) })
      response.writeHead(200, { ...responseHeaders, 'content-type': 'application/json' })
      response.end('{"code":200,"msg":"ok","data":null}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests
    },
    clear: () => {
      requests = []
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
