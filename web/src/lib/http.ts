import { CALL_ROUTES } from 'virtual:call-routes'
import {
  LIMITS,
  SIGN_IN_REQUIRED_STATUS,
  TOKEN_HEADER,
  fillPath,
  findChinese,
  isGatewayErrorBody,
  isSuccess,
  isTokenExpired,
  type CALLS,
  type CallData,
  type CallName,
  type CallParams,
  type CallBody,
  type CallQuery,
  type Envelope,
} from '@tradegate/shared'
import { requireOutcomeFlow } from './flow-signal'
import { i18n } from './i18n'
import { serverClock } from './server-clock'
import { currentToken, signOut } from './session'
import { showToast } from './toast'

// The one HTTP client: every request of the app goes through callApi or uploadWithProgress.

export interface CallInput<N extends CallName> {
  query?: CallQuery<N>
  body?: CallBody<N>
  params?: CallParams<N>
}

export interface CallOptions {
  signal?: AbortSignal
  /** true: the caller shows its own messages, no toast is raised */
  quiet?: boolean
  /** what counts as success; settings, watchlist and user info accept only code 200 */
  accept?: (envelope: Envelope) => boolean
}

export type ApiErrorReason = 'chinese' | 'network' | 'refused' | 'tokenExpired' | 'aborted'

export class ApiError extends Error {
  constructor(
    readonly reason: ApiErrorReason,
    message: string,
    readonly code?: number | string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'ApiError'
  }
}

export type MultipartCallName = {
  [N in CallName]: (typeof CALLS)[N] extends { bodyType: 'multipart' } ? N : never
}[CallName]

type Query = Record<string, string | number | boolean | undefined>

function toast(text: string, options: CallOptions): void {
  if (!options.quiet) showToast(text)
}

/** A translated message for a key the server or gateway sent, or the text itself when it is not a key. */
function translateServerMessage(message: string): string {
  const key = `errors.${message}`
  return /^[A-Za-z][\w.]{0,63}$/.test(message) && i18n.exists(key) ? i18n.t(key) : message
}

/**
 * Why an answer other than 200 failed: the gateway's reason (the exchange unavailable, too many
 * requests, a timeout) or the exchange's own message when the body names one, so a refused order says
 * why; "Network anomaly" only when the body tells nothing.
 */
function refusalText(envelope: Envelope | null): string {
  if (envelope !== null && isGatewayErrorBody(envelope)) return i18n.t(`errors.${envelope.msg}`)
  if (envelope?.msg) return translateServerMessage(envelope.msg)
  return i18n.t('errors.networkAnomaly')
}

function requestUrl(name: CallName, input: CallInput<CallName>): string {
  const path = fillPath(CALL_ROUTES[name].path, input.params as Record<string, string> | undefined, name)
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries((input.query ?? {}) as Query)) {
    if (value !== undefined) search.append(key, String(value))
  }
  const text = search.toString()
  return text ? `${path}?${text}` : path
}

function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    language: i18n.language || document.documentElement.lang,
    lang: document.documentElement.lang,
  }
  const token = currentToken()
  if (token) headers[TOKEN_HEADER] = token
  return headers
}

/** Raises the cannotInputChinese message and refuses when any query or body value holds Chinese. */
function refuseChinese(input: CallInput<CallName>, extra?: unknown): void {
  if (findChinese(input.query) !== null || findChinese(input.body) !== null || findChinese(extra) !== null) {
    const message = i18n.t('errors.cannotInputChinese')
    showToast(message)
    throw new ApiError('chinese', message)
  }
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && 'code' in parsed) return parsed as Envelope
  } catch {
    // not JSON: handled as a missing envelope by the caller
  }
  return null
}

/** Applies the error catalogue to one HTTP answer and returns the envelope of a successful call. */
/** The upstream's token-expired answer, or the gateway's refusal of a call that came without a usable session. */
function sessionEnded(status: number, envelope: Envelope): boolean {
  if (status === SIGN_IN_REQUIRED_STATUS)
    return isGatewayErrorBody(envelope) && envelope.msg === 'signInRequired'
  return status === 200 && isTokenExpired(envelope)
}

function judgeResponse(status: number, text: string, options: CallOptions): Envelope {
  const envelope = parseEnvelope(text)
  if (envelope !== null && sessionEnded(status, envelope)) {
    signOut({ forgetAutoLogin: false, ended: 'elsewhere' })
    setTimeout(() => window.location.reload(), LIMITS.tokenExpiredReloadMs)
    throw new ApiError('tokenExpired', envelope.msg, envelope.code, status)
  }
  if (status !== 200) {
    const message = refusalText(envelope)
    toast(message, options)
    throw new ApiError('network', message, envelope?.code, status)
  }
  if (envelope === null) {
    const message = i18n.t('errors.systemError')
    toast(message, options)
    throw new ApiError('refused', message, undefined, status)
  }
  const accept = options.accept ?? isSuccess
  if (!accept(envelope)) {
    const message = envelope.msg ? translateServerMessage(envelope.msg) : i18n.t('errors.systemError')
    toast(message, options)
    throw new ApiError('refused', message, envelope.code, status)
  }
  return envelope
}

/**
 * A call the call table marks as ending every session of the user has ended this page's as well: it
 * signs out here at once, not at the socket's notice or the next call's refusal. A sign-out does so
 * whatever the answer; a new password once it succeeded, and the sign-in screen then says why.
 */
function endSessionAsTheCallSays(name: CallName, succeeded: boolean): void {
  const ends = CALL_ROUTES[name].endsSessions
  if (ends === 'always') signOut({ forgetAutoLogin: true })
  else if (ends === 'onSuccess' && succeeded) signOut({ forgetAutoLogin: true, ended: 'newPassword' })
}

/** Sends one call of the call table and resolves with the whole envelope of a successful answer. */
export async function callEnvelope<N extends CallName>(
  name: N,
  input: CallInput<N> = {},
  options: CallOptions = {},
): Promise<Envelope<CallData<N>>> {
  let succeeded = false
  try {
    const envelope = await sendCall(name, input, options)
    succeeded = true
    return envelope
  } finally {
    endSessionAsTheCallSays(name, succeeded)
  }
}

async function sendCall<N extends CallName>(
  name: N,
  input: CallInput<N>,
  options: CallOptions,
): Promise<Envelope<CallData<N>>> {
  requireOutcomeFlow(name, options.signal)
  refuseChinese(input)
  const definition = CALL_ROUTES[name]
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('timeout', 'TimeoutError')),
    LIMITS.httpTimeoutMs,
  )
  const onOuterAbort = () => controller.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onOuterAbort, { once: true })
  try {
    const headers = requestHeaders()
    const hasBody = definition.method === 'POST' && input.body !== undefined
    if (hasBody) headers['content-type'] = 'application/json'
    let response: Response
    let text: string
    try {
      const sentAt = Date.now()
      response = await fetch(requestUrl(name, input), {
        method: definition.method,
        headers,
        body: hasBody ? JSON.stringify(input.body) : undefined,
        signal: controller.signal,
      })
      noteAnswerDate(response, sentAt)
      text = await response.text()
    } catch (error) {
      if (options.signal?.aborted) throw new ApiError('aborted', 'aborted')
      const message = i18n.t('errors.networkAnomaly')
      toast(message, options)
      throw new ApiError('network', message, undefined, undefined, { cause: error })
    }
    return judgeResponse(response.status, text, options) as Envelope<CallData<N>>
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onOuterAbort)
  }
}

/**
 * An answer no cache kept (no-store: every private call and every uncached one) dates itself to the
 * second, which is what the page knows of the exchange's clock before the first market frame.
 */
function noteAnswerDate(response: Response, sentAt: number): void {
  if (!response.headers.get('cache-control')?.includes('no-store')) return
  serverClock.noteAnswer(Date.parse(response.headers.get('date') ?? ''), sentAt, Date.now())
}

/** Sends one call and resolves with its data; failures reject with an ApiError after the user was told. */
export async function callApi<N extends CallName>(
  name: N,
  input: CallInput<N> = {},
  options: CallOptions = {},
): Promise<CallData<N>> {
  const envelope = await callEnvelope(name, input, options)
  return envelope.data as CallData<N>
}

export interface UploadInput<N extends MultipartCallName> {
  query?: CallQuery<N>
  /** text fields beside the files; checked by the Chinese rule like any other value */
  fields?: Record<string, string>
  files: Record<string, Blob>
}

/** Multipart upload over XMLHttpRequest, because fetch cannot report upload progress. */
export function uploadWithProgress<N extends MultipartCallName>(
  name: N,
  input: UploadInput<N>,
  onProgress: (percent: number) => void,
  options: CallOptions = {},
): Promise<CallData<N>> {
  refuseChinese({ query: input.query } as CallInput<CallName>, input.fields)
  const form = new FormData()
  for (const [key, value] of Object.entries(input.fields ?? {})) form.append(key, value)
  for (const [key, file] of Object.entries(input.files)) form.append(key, file)
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', requestUrl(name, { query: input.query } as CallInput<CallName>))
    request.timeout = LIMITS.httpTimeoutMs
    for (const [key, value] of Object.entries(requestHeaders())) request.setRequestHeader(key, value)
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)))
    }
    const failNetwork = () => {
      const message = i18n.t('errors.networkAnomaly')
      toast(message, options)
      reject(new ApiError('network', message))
    }
    request.onerror = failNetwork
    request.ontimeout = failNetwork
    request.onload = () => {
      try {
        const envelope = judgeResponse(request.status, request.responseText, options)
        onProgress(100)
        resolve(envelope.data as CallData<N>)
      } catch (error) {
        reject(error as Error)
      }
    }
    request.send(form)
  })
}
