import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './http'
import { setLanguage } from './i18n'
import {
  LOOKUP_GAP_MS,
  LOOKUP_TRIES,
  SUBMIT_TIME_LIMIT_MS,
  outcomeUncertain,
  submitOnce,
  type SubmitOptions,
  type SubmitPhase,
} from './submit'

// The submit flow alone: the request and the lookup are functions of the test, the clock is fake.

beforeAll(async () => {
  await setLanguage('en', { save: false })
})

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/** Runs one submission to its end, advancing the fake clock as far as it needs. */
async function submit(send: (signal: AbortSignal) => Promise<unknown>, options: SubmitOptions = {}) {
  const phases: SubmitPhase[] = []
  const done = submitOnce(send, options, (phase) => phases.push(phase))
  await vi.runAllTimersAsync()
  return { outcome: await done, phases }
}

/** A request that never answers by itself, like one lost in a dead connection; it notes its abort. */
function hanging() {
  const state = { aborted: false }
  const send = (signal: AbortSignal) =>
    new Promise<never>((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        state.aborted = true
        reject(new ApiError('aborted', 'aborted'))
      })
    })
  return { send, state }
}

const networkFailure = (status?: number) => new ApiError('network', 'Network anomaly', undefined, status)

describe('submitOnce', () => {
  it('ends at once with the answer when it comes within the time limit, asking no lookup', async () => {
    const lookup = vi.fn(async () => true)
    const { outcome, phases } = await submit(async () => ({ id: 1 }), { lookup })
    expect(outcome).toEqual({ kind: 'done' })
    expect(phases).toEqual(['sending'])
    expect(lookup).not.toHaveBeenCalled()
  })

  it("keeps a refusal's message and asks no lookup: the server answered", async () => {
    const lookup = vi.fn(async () => true)
    const { outcome, phases } = await submit(
      () => Promise.reject(new ApiError('refused', 'Insufficient balance', 500, 200)),
      { lookup },
    )
    expect(outcome).toEqual({ kind: 'refused', message: 'Insufficient balance' })
    expect(phases).toEqual(['sending'])
    expect(lookup).not.toHaveBeenCalled()
  })

  it('says "not confirmed yet" after the time limit, aborts the request and reports what the lookup found', async () => {
    const request = hanging()
    const sentAt = Date.now()
    const lookup = vi.fn(async () => true)
    const phases: SubmitPhase[] = []
    const done = submitOnce(request.send, { lookup }, (phase) => phases.push(phase))
    await vi.advanceTimersByTimeAsync(SUBMIT_TIME_LIMIT_MS - 1)
    expect(phases).toEqual(['sending'])
    expect(request.state.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(phases).toEqual(['sending', 'unconfirmed'])
    expect(request.state.aborted).toBe(true)
    expect(await done).toEqual({ kind: 'checked', phase: 'wentThrough' })
    expect(lookup).toHaveBeenCalledWith(sentAt)
  })

  it('looks again while the action is absent, and only then says it did not go through', async () => {
    const lookup = vi.fn(async () => false)
    const { outcome, phases } = await submit(() => Promise.reject(networkFailure()), { lookup })
    expect(phases).toEqual(['sending', 'unconfirmed'])
    expect(outcome).toEqual({ kind: 'checked', phase: 'notThrough' })
    expect(lookup).toHaveBeenCalledTimes(LOOKUP_TRIES)
  })

  it('stops looking when the lookup finds what happened instead, and says what', async () => {
    const lookup = vi.fn(async () => ({ instead: 'submit.closedFirst.stopLoss' }))
    const { outcome, phases } = await submit(hanging().send, { lookup })
    expect(phases).toEqual(['sending', 'unconfirmed'])
    expect(outcome).toEqual({ kind: 'checked', phase: 'notThrough', instead: 'submit.closedFirst.stopLoss' })
    // what happened instead does not change: a second look could not find the action
    expect(lookup).toHaveBeenCalledTimes(1)
  })

  it('takes an action that shows up on a later lookup as gone through', async () => {
    const answers = [false, true]
    const lookup = vi.fn(async () => answers.shift() ?? false)
    const phases: SubmitPhase[] = []
    const done = submitOnce(
      () => Promise.reject(networkFailure(504)),
      { lookup },
      (phase) => phases.push(phase),
    )
    await vi.advanceTimersByTimeAsync(0)
    expect(lookup).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(LOOKUP_GAP_MS)
    expect(await done).toEqual({ kind: 'checked', phase: 'wentThrough' })
    expect(lookup).toHaveBeenCalledTimes(2)
  })

  it('stays unknown without a lookup, or when every lookup fails', async () => {
    expect((await submit(hanging().send)).outcome).toEqual({ kind: 'checked', phase: 'unknown' })
    const failing = vi.fn(() => Promise.reject(networkFailure()))
    const { outcome } = await submit(() => Promise.reject(networkFailure(502)), { lookup: failing })
    expect(outcome).toEqual({ kind: 'checked', phase: 'unknown' })
    expect(failing).toHaveBeenCalledTimes(LOOKUP_TRIES)
  })

  it('says "did not go through" when one lookup failed and the others found nothing', async () => {
    const answers: Array<() => Promise<boolean>> = [
      () => Promise.reject(networkFailure()),
      async () => false,
      async () => false,
    ]
    const { outcome } = await submit(() => Promise.reject(networkFailure()), {
      lookup: () => (answers.shift() ?? (async () => false))(),
    })
    expect(outcome).toEqual({ kind: 'checked', phase: 'notThrough' })
  })

  it('refuses a money action while the browser is offline without sending anything', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    const send = vi.fn(async () => undefined)
    const { outcome, phases } = await submit(send, { money: true })
    expect(outcome).toEqual({
      kind: 'offline',
      message: 'No connection, so nothing was sent. Try again once you are back online.',
    })
    expect(phases).toEqual([])
    expect(send).not.toHaveBeenCalled()
    // other forms are sent as usual; the browser decides what an offline request does
    expect((await submit(send)).outcome).toEqual({ kind: 'done' })
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('treats a send that throws before its first await like a refusal', async () => {
    const { outcome } = await submit(() => {
      throw new ApiError('chinese', 'No Chinese characters')
    })
    expect(outcome).toEqual({ kind: 'refused', message: 'No Chinese characters' })
  })
})

describe('outcomeUncertain', () => {
  it.each([
    ['no answer at all', networkFailure(), true],
    ['the exchange went away mid-call (502)', networkFailure(502), true],
    ['the exchange did not answer in time (504)', networkFailure(504), true],
    ['the client gave up waiting', new ApiError('aborted', 'aborted'), true],
    ["the gateway's own load shedding (503)", networkFailure(503), false],
    ['a rate limit (429)', networkFailure(429), false],
    ['a refusal', new ApiError('refused', 'no', 500, 200), false],
    ['a bad value caught before sending', new ApiError('chinese', 'no'), false],
    ['an error that is not the HTTP client’s', new Error('bug'), false],
  ])('%s: %s', (_name, error, uncertain) => {
    expect(outcomeUncertain(error)).toBe(uncertain)
  })
})
