import { Type, type Static } from 'typebox'

// What happened to a user's money or positions without the user asking at that moment (ours: the
// seed names the per-user streams but not what they carry). The exchange attaches one as `event` to
// the data of the per-user frame the change travels in (OWNCOIN for a fill or a deposit, POSITION for
// a triggered close or a liquidation, SETTLEMENT for a settled contract), and keeps the recent ones
// for the `userNotices` call, so a page that lost its socket finds what it missed. The same event
// has the same id in both, so a client announces each once.

export const NOTICE_KINDS = [
  /** a resting spot or contract order filled, whole */
  'orderFilled',
  /** a resting spot order filled in part */
  'orderPartFilled',
  /** a resting close order of a contract position filled */
  'closeFilled',
  'takeProfit',
  'stopLoss',
  'liquidated',
  /** an open position paid (negative amount) or received funding at a funding time (ours) */
  'funding',
  'secondSettled',
  'optionSettled',
  'deposit',
  'withdrawalReviewed',
] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

/** The side an event names: a spot order's buy or sell, a contract's long or short, a second contract's up or down, an option's call or put. */
export const NOTICE_SIDES = ['buy', 'sell', 'long', 'short', 'up', 'down', 'call', 'put'] as const
export type NoticeSide = (typeof NOTICE_SIDES)[number]

const DecimalText = Type.String({ pattern: '^-?[0-9]{1,30}(\\.[0-9]{1,18})?$' })

export const UserNotice = Type.Object({
  /** unique among the user's events */
  id: Type.String({ pattern: '^[\\w-]{1,40}$' }),
  kind: Type.Unsafe<NoticeKind>({ type: 'string', enum: [...NOTICE_KINDS] }),
  /** epoch ms on the exchange's clock */
  at: Type.Integer({ minimum: 0 }),
  /** the instrument: a symbol such as btcusdt */
  symbol: Type.Optional(Type.String({ pattern: '^[a-z0-9]{2,24}$' })),
  side: Type.Optional(Type.Unsafe<NoticeSide>({ type: 'string', enum: [...NOTICE_SIDES] })),
  /** size: a coin quantity, a contract's shares, an option's quantity */
  qty: Type.Optional(DecimalText),
  /** the price it filled, triggered or settled at */
  price: Type.Optional(DecimalText),
  /** the coin of `amount` */
  coin: Type.Optional(Type.String({ pattern: '^[a-z0-9]{1,20}$' })),
  /** money: a deposit, a withdrawal, a settlement's profit or payout, a close's PnL (signed) */
  amount: Type.Optional(DecimalText),
  /** how it ended where it can end two ways: win, lose or draw; approved or rejected */
  outcome: Type.Optional(Type.String({ pattern: '^[a-z]{1,16}$' })),
})
export type UserNotice = Static<typeof UserNotice>

/** The event a per-user frame's data carries, or null when it carries none (or one that is malformed). */
export function noticeOf(data: Record<string, unknown>): UserNotice | null {
  const event = data.event
  if (typeof event !== 'object' || event === null) return null
  const { id, kind, at } = event as Record<string, unknown>
  if (typeof id !== 'string' || typeof at !== 'number') return null
  if (!(NOTICE_KINDS as readonly unknown[]).includes(kind)) return null
  return event as UserNotice
}
