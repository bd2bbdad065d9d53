import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { TrustProxy } from '../config'

// Checks made on a socket's HTTP upgrade request, before any WebSocket work is done.

export const SOCKET_PATH = /^\/ws\/([\w-]{1,64})\/?(?:\?.*)?$/

/** ALLOWED_ORIGINS empty: only pages served from the same host; no Origin header: a non-browser client. */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: string[],
): boolean {
  if (!origin) return true
  if (allowed.length > 0) return allowed.includes('*') || allowed.includes(origin)
  try {
    return new URL(origin).host === host
  } catch {
    return false
  }
}

export function parseAllowedOrigins(value: string): string[] {
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean)
}

/** The client address for per-IP limits, honouring TRUST_PROXY the way Fastify does for requests. */
export function clientAddress(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? 'unknown'
  const trust =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? (_address: string, index: number) => index < trustProxy
        : proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()))
  return (request) => proxyAddr(request, trust)
}
