// The keys the sandbox names its welfare tasks and in-site messages by; the client translates each,
// and a test fails when any language lacks one.

export const WELFARE_TASK_TITLES = ['signUp', 'firstDeposit', 'verifyIdentity', 'firstTrade'] as const
export type WelfareTaskTitle = (typeof WELFARE_TASK_TITLES)[number]

export const MESSAGE_TITLES = [
  'welcome',
  'depositCredited',
  'withdrawCompleted',
  'withdrawRejected',
  'kycApproved',
  'kycRejected',
] as const
export type MessageTitle = (typeof MESSAGE_TITLES)[number]
