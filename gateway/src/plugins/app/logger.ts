import type { Writable } from 'node:stream'
import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import { destination } from 'pino'
import type { GatewayConfig } from '../../config'

// Request fields that carry secrets or contact details; they must never reach a log line.
const SECRET_FIELDS = ['satoken', 'password', 'pwd', 'oldPwd', 'newPwd', 'fundPwd', 'code', 'emailCode']
const PRIVATE_FIELDS = ['address', 'loginKey', 'email', 'phone']

const REDACTED_PATHS = [
  'req.headers.satoken',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'req.headers["x-feed-token"]',
  // only where a request's query or body is logged, so a log field such as a socket close `code` stays readable;
  // exact paths, because wildcard paths make every log call walk the whole object
  ...[...SECRET_FIELDS, ...PRIVATE_FIELDS].flatMap((field) => [`body.${field}`, `query.${field}`]),
]

// Query keys whose values are replaced in logged URLs: passwords, codes, tokens, addresses and contact details.
const SECRET_QUERY_KEY = /pwd|pass|code|token|address|email|phone|loginkey/i

/** The URL with every secret query value replaced, so a logged URL never carries a password or code. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart < 0) return url
  const pairs = url.slice(queryStart + 1).split('&')
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index] as string
    const equals = pair.indexOf('=')
    const rawKey = equals < 0 ? pair : pair.slice(0, equals)
    if (SECRET_QUERY_KEY.test(safeDecode(rawKey))) pairs[index] = `${rawKey}=[redacted]`
  }
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text
  }
}

export function loggerOptions(config: GatewayConfig, stream?: Writable): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    base: { instance: config.INSTANCE_ID },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Fastify's error lines include the request; keep its URL redacted and its headers out
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
    // asynchronous writes batch lines under load instead of one write call per request; main flushes on exit
    stream: stream ?? destination({ dest: 1, sync: false }),
  }
}
