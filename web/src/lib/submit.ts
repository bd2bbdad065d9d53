import { useRef, useState } from 'react'
import { issueFlowSignal } from './flow-signal'
import { ApiError } from './http'
import { i18n } from './i18n'
import { socketSaysOffline } from './live/socket-client'
import { showOutcome, showToast } from './toast'

/**
 * The one way the app sends something the user submitted: an order, a money action, a form.
 *
 *   const submit = useSubmit({ money: true, lookup: findMyTransfer, checkWhere: 'submit.where.records' })
 *   <Form onSubmit={() => submit.run((signal) => transferFunds(body, { signal }))}>
 *   <SubmitButton busy={submit.busy}>…   <SubmitNotice submit={submit} />   (components/submit-notice)
 *
 * `run(send)` sends once at a time (a second run while one is busy is ignored) and resolves true only
 * when the action went through. `send` gets an AbortSignal to hand to callApi; code after its
 * `await` (a toast, clearing the form) runs only on a direct success.
 * - `money`: refused without sending while the browser or the live socket is offline. Nothing is
 *   ever queued for later: `error` says so and a toast repeats it.
 * - A refusal (the server said no, a bad value) ends it at once: `error` holds the message, which
 *   the HTTP client has already toasted.
 * - No answer within `timeoutMs` (about 15 s), or an answer lost on the way (no response, 502,
 *   504): `phase` is 'unconfirmed' ("not confirmed yet"), the request is aborted and `lookup(sentAt)`
 *   is asked whether the action exists (up to three times, two seconds apart, since it may land
 *   late). Found: 'wentThrough'. Absent every time: 'notThrough'. Something else happened instead
 *   that rules the action out (a stop-loss closed the position the user was closing): 'notThrough'
 *   at once, with `instead` naming what. No lookup, or it kept failing: 'unknown', and the notice
 *   names `checkWhere` (an i18n key) as the place to look.
 * - `toastOutcome`: the checked outcome is told by an outcome toast instead of the notice, for a
 *   form that may go before it is read (a position's close form leaves with the position's card
 *   when the position closes, whoever closed it).
 * - `onSettled` runs after every try that sent something: balances and lists change either way.
 * - `reset()` clears the error and an outcome notice, e.g. when the user edits the form.
 */

/** What the user is told about the latest submission; the last three only follow 'unconfirmed'. */
export type SubmitPhase = 'idle' | 'sending' | 'unconfirmed' | 'wentThrough' | 'notThrough' | 'unknown'

export interface SubmitOptions {
  /** a money action or order: refused while offline */
  money?: boolean
  /** how long to wait for the answer before saying "not confirmed yet" */
  timeoutMs?: number
  /**
   * true when the action is found on the server (e.g. in the order list since sentAt), false when
   * not yet, or what happened instead when that rules it out for good; throws when it cannot tell
   */
  lookup?: (sentAt: number) => Promise<boolean | Instead>
  /** i18n key naming where to check when the outcome stays unknown */
  checkWhere?: string
  /** tell the checked outcome by an outcome toast, not the notice: the form may be gone by then */
  toastOutcome?: boolean
  onSettled?: () => void
}

/** Fifteen seconds: past any normal answer, and short enough that a user has not given up. */
export const SUBMIT_TIME_LIMIT_MS = 15_000
/** Lookups after a lost answer: the action may reach the exchange a moment after the client gave up. */
export const LOOKUP_TRIES = 3
export const LOOKUP_GAP_MS = 2000

/** How far the exchange's clock may run behind this browser's and a row found by a lookup still count as the one sent. */
export const CLOCK_SLACK_MS = 30_000

export const DEFAULT_CHECK_WHERE = 'submit.where.history'

/** What a lookup found happened in the action's place: `instead` is the i18n key that says it. */
export interface Instead {
  instead: string
}

export type SubmitOutcome =
  | { kind: 'done' }
  | { kind: 'refused'; message: string }
  | { kind: 'offline'; message: string }
  | { kind: 'checked'; phase: 'wentThrough' | 'notThrough' | 'unknown'; instead?: string }

/** Whether the browser or the live socket says there is no connection (money actions are then refused). */
export function isOffline(): boolean {
  return (typeof navigator !== 'undefined' && navigator.onLine === false) || socketSaysOffline()
}

/**
 * A failure after which the action may still have happened: no answer at all, or the gateway's
 * 502/504 for an exchange that went away mid-call. Anything else (a refusal, 400, 429, the gateway's
 * own 503) was answered before the action was carried out.
 */
export function outcomeUncertain(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.reason === 'aborted') return true
  if (error.reason !== 'network') return false
  return error.status === undefined || error.status === 502 || error.status === 504
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

type Answer = { ok: true } | { ok: false; error: unknown } | { ok: 'timeout' }

/**
 * Asks the lookup until it finds the action, or what happened instead, or runs out of tries; null
 * when it never could tell.
 */
async function lookUp(lookup: SubmitOptions['lookup'], sentAt: number): Promise<boolean | Instead | null> {
  if (!lookup) return null
  let told = false
  for (let attempt = 0; attempt < LOOKUP_TRIES; attempt++) {
    if (attempt > 0) await wait(LOOKUP_GAP_MS)
    try {
      const found = await lookup(sentAt)
      // what happened instead will not change: asking again cannot find the action
      if (found) return found
      told = true
    } catch {
      // could not check this time: the next try may
    }
  }
  return told ? false : null
}

/**
 * One submission without React: `onPhase` hears 'sending', then 'unconfirmed' and the checked
 * outcome when the answer did not come. Exported for the unit tests and for non-React callers.
 */
export async function submitOnce(
  send: (signal: AbortSignal) => Promise<unknown>,
  options: SubmitOptions,
  onPhase: (phase: SubmitPhase) => void,
): Promise<SubmitOutcome> {
  if (options.money && isOffline()) return { kind: 'offline', message: i18n.t('submit.offline') }
  const controller = new AbortController()
  // an order or money action is let through the HTTP client only with a lookup behind it (flow-signal.ts)
  if (options.lookup) issueFlowSignal(controller.signal)
  const sentAt = Date.now()
  onPhase('sending')
  let timer: ReturnType<typeof setTimeout> | undefined
  const answer = await Promise.race<Answer>([
    // a send that throws before its first await counts like one that rejects
    Promise.resolve()
      .then(() => send(controller.signal))
      .then(
        () => ({ ok: true }),
        (error: unknown) => ({ ok: false, error }),
      ),
    new Promise<Answer>((resolve) => {
      timer = setTimeout(() => resolve({ ok: 'timeout' }), options.timeoutMs ?? SUBMIT_TIME_LIMIT_MS)
    }),
  ])
  clearTimeout(timer)
  if (answer.ok === true) return { kind: 'done' }
  if (answer.ok === false && !outcomeUncertain(answer.error)) {
    const message = answer.error instanceof Error ? answer.error.message : String(answer.error)
    return { kind: 'refused', message }
  }
  // from here a late answer must not run the caller's success code: the lookup decides
  controller.abort(new DOMException('timeout', 'TimeoutError'))
  onPhase('unconfirmed')
  const found = await lookUp(options.lookup, sentAt)
  if (found === null) return { kind: 'checked', phase: 'unknown' }
  if (found === true) return { kind: 'checked', phase: 'wentThrough' }
  return { kind: 'checked', phase: 'notThrough', ...(found ? { instead: found.instead } : {}) }
}

export interface Submit {
  busy: boolean
  phase: SubmitPhase
  /** why the latest try was refused (server message or offline); null otherwise */
  error: string | null
  /** i18n key of where to check an unknown outcome */
  checkWhere: string
  /** i18n key of what a lookup found happened in place of the action ('notThrough'); null otherwise */
  instead: string | null
  /** `lookup`, when given, replaces the options' for this run (one form, several actions) */
  run: (send: (signal: AbortSignal) => Promise<unknown>, lookup?: SubmitOptions['lookup']) => Promise<boolean>
  reset: () => void
}

/** What the user is told in a phase after 'sending': what happened instead, or the phase's own text. */
export function phaseText(
  { phase, instead }: { phase: SubmitPhase; instead?: string | null },
  checkWhere: string,
): string {
  if (phase === 'notThrough' && instead) return i18n.t(instead)
  return i18n.t(`submit.${phase}`, { where: i18n.t(checkWhere) })
}

/** The React side of submitOnce: see the comment at the top of this file. */
export function useSubmit(options: SubmitOptions = {}): Submit {
  const [phase, setPhase] = useState<SubmitPhase>('idle')
  const [error, setError] = useState<string | null>(null)
  const [instead, setInstead] = useState<string | null>(null)
  const inFlight = useRef(false)
  const checkWhere = options.checkWhere ?? DEFAULT_CHECK_WHERE
  const run = async (
    send: (signal: AbortSignal) => Promise<unknown>,
    lookup: SubmitOptions['lookup'] = options.lookup,
  ): Promise<boolean> => {
    if (inFlight.current) return false
    inFlight.current = true
    setError(null)
    setInstead(null)
    let outcome: SubmitOutcome = { kind: 'refused', message: '' }
    try {
      outcome = await submitOnce(send, { ...options, lookup }, setPhase)
    } finally {
      inFlight.current = false
      const toast = outcome.kind === 'checked' && options.toastOutcome
      setPhase(outcome.kind === 'checked' && !toast ? outcome.phase : 'idle')
      if (outcome.kind === 'checked') {
        if (toast) showOutcome(phaseText(outcome, checkWhere))
        else setInstead(outcome.instead ?? null)
      }
      if (outcome.kind === 'refused' || outcome.kind === 'offline') setError(outcome.message || null)
      if (outcome.kind === 'offline') showToast(outcome.message)
      else options.onSettled?.()
    }
    return outcome.kind === 'done' || (outcome.kind === 'checked' && outcome.phase === 'wentThrough')
  }
  const reset = () => {
    setError(null)
    if (!inFlight.current) {
      setPhase('idle')
      setInstead(null)
    }
  }
  return {
    busy: phase === 'sending' || phase === 'unconfirmed',
    phase,
    error,
    checkWhere,
    instead,
    run,
    reset,
  }
}
