import type { Writable } from 'node:stream'
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify'
import { destination, type Bindings, type ChildLoggerOptions, type LogFn, type Logger } from 'pino'
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

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * A request's logger that makes its pino child (the request id bound to every line) only when it writes
 * a line: most requests write none, or only the request line, and a child costs a bindings string each.
 */
class RequestLogger {
  private made: FastifyBaseLogger | null = null

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.child().level = level
  }

  isLevelEnabled(level: string): boolean {
    if (this.made) return (this.made as unknown as Logger).isLevelEnabled(level)
    const values = this.parent.levels.values
    return (values[level] ?? Infinity) >= (values[this.level] ?? Infinity)
  }

  fatal(...args: Parameters<LogFn>): void {
    this.write('fatal', args)
  }
  error(...args: Parameters<LogFn>): void {
    this.write('error', args)
  }
  warn(...args: Parameters<LogFn>): void {
    this.write('warn', args)
  }
  info(...args: Parameters<LogFn>): void {
    this.write('info', args)
  }
  debug(...args: Parameters<LogFn>): void {
    this.write('debug', args)
  }
  trace(...args: Parameters<LogFn>): void {
    this.write('trace', args)
  }
  silent(): void {}

  child(bindings?: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options) as FastifyBaseLogger
    return bindings ? this.made.child(bindings, options) : this.made
  }

  private write(level: LevelName, args: Parameters<LogFn>): void {
    if (!this.isLevelEnabled(level)) return
    ;(this.child()[level] as (...all: unknown[]) => void)(...args)
  }
}

/** Fastify's childLoggerFactory: each request's logger, its pino child made on its first line. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger
