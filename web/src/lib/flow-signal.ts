import type { CallName } from '@tradegate/shared'

// The guard that keeps every order and money action on the one outcome flow (lib/submit.ts): such a
// call is sent only with an abort signal the flow issued, for a submission that has a lookup, so
// an unanswered one is always told as "not confirmed yet" and then resolved by asking the exchange.
// Kept apart from submit.ts so the HTTP client can check it without importing the flow.

/**
 * Every order and money action the client sends. A new mutating call is classified in
 * web/test/unit/outcome-flow.test.ts: added here, or named there with the reason it is not one.
 */
export const OUTCOME_FLOW_CALLS: ReadonlySet<CallName> = new Set<CallName>([
  'spotOrderSubmit',
  'contractOrderSubmit',
  'contractOrderAmend',
  'positionStop',
  'positionAdjustMargin',
  'lossSet',
  'lossCancel',
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
])

const issued = new WeakSet<AbortSignal>()

/** Called by the flow for a submission that has a lookup. */
export function issueFlowSignal(signal: AbortSignal): void {
  issued.add(signal)
}

/** Throws when `name` is an order or money action sent any other way than through the flow. */
export function requireOutcomeFlow(name: CallName, signal: AbortSignal | undefined): void {
  if (!OUTCOME_FLOW_CALLS.has(name) || (signal && issued.has(signal))) return
  throw new Error(
    `${name} is an order or money action: send it through useSubmit or submitOnce with a lookup`,
  )
}
