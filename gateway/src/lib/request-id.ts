import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'

/** A proxy-addr trust function: is the address `hop` steps from the gateway a proxy to look past? */
export type TrustFunction = (address: string, hop: number) => boolean

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** A client's x-request-id is kept only when it is short and plain, so it is safe in logs and headers. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID()
}

/**
 * The client address Fastify gives `request.ip` for a `trustProxy` option, for code that answers before
 * Fastify makes its request (the cached-GET fast path): the socket's peer, or with a trusted proxy the
 * nearest untrusted address of X-Forwarded-For. Fastify's own rule (its getTrustProxyFn), restated.
 */
export function clientAddressFor(
  trustProxy: boolean | string | TrustFunction,
): (raw: IncomingMessage) => string | undefined {
  if (trustProxy === false) return (raw) => raw.socket?.remoteAddress
  const trust: (address: string, hop: number) => boolean =
    typeof trustProxy === 'function'
      ? trustProxy
      : trustProxy === true
        ? () => true
        : proxyAddr.compile(trustProxy.split(',').map((part) => part.trim()))
  return (raw) => {
    const addresses = proxyAddr.all(raw, trust)
    return addresses[addresses.length - 1]
  }
}
