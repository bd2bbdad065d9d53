import { createServer, type ServerResponse } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '@tradegate/shared'
import { startTestGateway, type TestGateway } from '../helpers'

// The requests a gateway is answering are kept so a shutdown can answer them; each must be let go once
// its exchange has ended, however it ended. A request held for good holds its body with it (an
// upload's 5 MiB), so memory would only grow.

describe('requests in flight', () => {
  // the upstream holds every sign-in until the test lets it answer, and answers the rest (the
  // gateway's own probes) at once
  const held: ServerResponse[] = []
  const upstream = createServer((request, response) => {
    request.resume()
    if (request.url === CALLS.login.path) held.push(response)
    else response.end('{"code":200,"msg":"ok","data":null}')
  })
  let gateway: TestGateway
  let port = 0

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    gateway = await startTestGateway({ UPSTREAM_URL: upstreamUrl, REDIS_URL: '' })
    await gateway.app.listen({ port: 0, host: '127.0.0.1' })
    port = (gateway.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await gateway?.close()
    for (const response of held) response.destroy()
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
  })

  const poll = <T>(read: () => T) => expect.poll(read, { timeout: 20_000, interval: 20 })
  const answerHeld = () => {
    for (const response of held.splice(0)) response.end('{"code":200,"msg":"ok","data":null}')
  }

  /** A sign-in sent whole over a connection of its own that stays open (keep-alive); its socket and answer. */
  function signIn() {
    const body = JSON.stringify({ username: 'ann', password: 'secret-pass-1' })
    const socket = connect({ port, host: '127.0.0.1' })
    const answer = new Promise<string>((resolve) => {
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1')
        if (text.includes('\r\n\r\n{')) resolve(text)
      })
      socket.on('error', () => undefined)
      socket.on('close', () => resolve(text))
    })
    socket.write(
      `POST ${CALLS.login.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    return { socket, answer }
  }

  it('lets go of an answered request on a connection kept open', async () => {
    const exchange = signIn()
    await poll(() => held.length).toBe(1)
    expect(gateway.app.requestsInFlight).toBe(1)
    answerHeld()
    expect(await exchange.answer).toMatch(/^HTTP\/1\.1 200 /)
    await poll(() => gateway.app.requestsInFlight).toBe(0)
    exchange.socket.destroy()
  })

  it('lets go of a request whose client left, whole body sent, while the upstream was answering', async () => {
    const left = [signIn(), signIn(), signIn()]
    await poll(() => held.length).toBe(3)
    expect(gateway.app.requestsInFlight).toBe(3)
    for (const { socket } of left) socket.destroy()
    // the upstream answers after the clients have gone: nobody reads those answers
    answerHeld()
    await poll(() => gateway.app.requestsInFlight).toBe(0)
  })
})
