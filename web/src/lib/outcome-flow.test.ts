import { readFileSync, readdirSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CALLS, type CallName } from '@tradegate/shared'
import { OUTCOME_FLOW_CALLS } from './flow-signal'
import { callApi } from './http'
import { submitOnce } from './submit'

// Every call that changes something, as the client sends it, is either an order or money action
// (and then reaches the network only through the outcome flow of submit.ts, with a lookup) or named
// below with the reason it is not one. A new mutating call fails here until it is classified.

const NOT_ACTIONS: Partial<Record<CallName, string>> = {
  login: 'signing in: nothing to look up, a repeat is harmless',
  autoLogin: 'signing in automatically',
  register: 'an account, not money: a repeat is refused as a taken name',
  backPwd: 'a password reset, not money',
  sendEmailCode: 'a verification code, not money',
  sendMobileCode: 'a verification code, not money',
  bindEmail: 'an account setting, not money',
  bindPhone: 'an account setting, not money',
  tardPwdSet: 'an account setting, not money',
  updatePwd: 'an account setting, not money',
  updateUserLoginPwd: 'an account setting, not money',
  loginOut: 'signing out',
  watchlistAdd: 'a watchlist, not money',
  watchlistRemove: 'a watchlist, not money',
  welfareClaim: 'a reward claim the exchange grants once: a repeat is refused, not doubled',
  addressBookAdd: 'an address book entry, not money',
  addressBookRemove: 'an address book entry, not money',
  rechargeSubmit: 'a deposit report staff review: it moves no money itself',
  spotOrderCancel: 'a cancel: the order list it refreshes shows whether it stood, and a repeat is refused',
  contractOrderCancel:
    'a cancel: the order list it refreshes shows whether it stood, and a repeat is refused',
  followStart: 'copy trading is set up, not traded: the follow list shows it',
  followStop: 'copy trading is stopped: the follow list shows it',
  traderApply: 'an application staff review: the trader page shows its state',
  payAddress: 'a read sent as POST (the deposit address)',
  secondOrderList: 'a read sent as POST (the second-contract list)',
}

const sourceDir = new URL('..', import.meta.url)

/** Every call name the client's source sends with callApi or callEnvelope. */
function callsInSource(): Set<CallName> {
  const names = new Set<CallName>()
  const files = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'),
  )
  for (const file of files) {
    const source = readFileSync(new URL(file, sourceDir), 'utf8')
    for (const match of source.matchAll(/\bcall(?:Api|Envelope)\(\s*'(\w+)'/g))
      names.add(match[1] as CallName)
  }
  return names
}

const mutating = [...callsInSource()].filter((name) => CALLS[name].method !== 'GET').sort()

/** The client's source files that submit a money action or order (useSubmit({ money: true }) or submitOnce). */
function moneyFlowFiles(): Array<{ file: string; source: string }> {
  return readdirSync(sourceDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('lib/submit.ts'))
    .map((file) => ({ file, source: readFileSync(new URL(file, sourceDir), 'utf8') }))
    .filter(({ source }) => /useSubmit\(\{[^}]*money: true|submitOnce\(/s.test(source))
}

/** Flows whose success their caller announces, with where. */
const ANNOUNCED_BY_CALLER: Record<string, string> = {
  'components/amount-form.tsx': 'its onSubmit (follow-confirm.tsx) raises the outcome',
  'features/wallet/lib/use-spend-from-balance.ts':
    'the transfer and flash exchange screens raise the outcome',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the outcome flow', () => {
  it('knows every call the client sends that is not a GET: an action, or named with why it is not', () => {
    expect(mutating.length).toBeGreaterThan(20)
    const unclassified = mutating.filter((name) => !OUTCOME_FLOW_CALLS.has(name) && !(name in NOT_ACTIONS))
    expect(unclassified).toEqual([])
    // and names no action the client no longer sends, nor one twice
    expect([...OUTCOME_FLOW_CALLS].filter((name) => !mutating.includes(name))).toEqual([])
    expect([...OUTCOME_FLOW_CALLS].filter((name) => name in NOT_ACTIONS)).toEqual([])
  })

  it('covers every action the desk and the money screens take', () => {
    for (const name of [
      'spotOrderSubmit',
      'contractOrderSubmit',
      'contractOrderAmend',
      'positionStop',
      'lossSet',
      'secondOrderCreate',
      'optionOrderSubmit',
      'optionOrderSell',
      'transferFunds',
      'currencyExchange',
      'financeSubscribe',
      'financeRedeem',
      'proxySubscribe',
      'proxyRedeem',
      'withdrawSubmit',
    ] as const)
      expect(OUTCOME_FLOW_CALLS.has(name), name).toBe(true)
  })

  it('announces every action that went through by the focused outcome, never a plain toast', () => {
    const files = moneyFlowFiles()
    // the desk, options, deposit report, savings and the money screens at least
    expect(files.length).toBeGreaterThan(15)
    for (const { file, source } of files) {
      const path = file.replaceAll('\\', '/')
      // a plain toast only refuses before anything is sent (return showToast(...) on a bad amount)
      const plainToasts = [...source.matchAll(/(return\s+)?showToast\(/g)].filter((match) => !match[1])
      expect(plainToasts, `${path} raises a plain toast`).toEqual([])
      if (path in ANNOUNCED_BY_CALLER) continue
      // the outcome takes focus: a focused toast, or a summary that focuses itself
      expect(/showOutcome\(|useFocusOnMount\(/.test(source), `${path} announces no focused outcome`).toBe(
        true,
      )
    }
  })

  it.each([...OUTCOME_FLOW_CALLS])('sends %s only through the flow, with a lookup', async (name) => {
    const fetchStub = vi.fn(async () => new Response(JSON.stringify({ code: 200, msg: 'ok', data: {} })))
    vi.stubGlobal('fetch', fetchStub)
    // straight to the HTTP client: refused before anything is sent
    await expect(callApi(name, {}, { quiet: true })).rejects.toThrow(/through useSubmit or submitOnce/)
    // through the flow without a lookup: the same
    const unchecked = await submitOnce(
      (signal) => callApi(name, {}, { signal, quiet: true }),
      {},
      () => {},
    )
    expect(unchecked.kind).toBe('refused')
    expect(fetchStub).not.toHaveBeenCalled()
    // through the flow with a lookup: sent
    const checked = await submitOnce(
      (signal) => callApi(name, {}, { signal, quiet: true }),
      { lookup: async () => true },
      () => {},
    )
    expect(checked.kind).toBe('done')
    expect(fetchStub).toHaveBeenCalledTimes(1)
  })
})
