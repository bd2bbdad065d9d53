import { toDecimal, type WelfareTask } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { User } from '../accounts/users'
import { QUOTE_COIN } from '../markets/catalogue'
import type { SandboxState } from '../state'
import type { WelfareTaskTitle } from './titles'

// Welfare tasks: done when the user's records show it, claimed once for a usdt reward.

interface TaskDefinition {
  id: number
  title: WelfareTaskTitle
  reward: string
  done: (user: User) => boolean
}

export function welfareHandlers({ ledger }: SandboxState): Pick<Handlers, 'welfareTasks' | 'welfareClaim'> {
  const claimed = new Map<string, Set<number>>()
  const hasRecord = (user: User, kinds: string[]) =>
    ledger.records(user.id).some((record) => kinds.includes(record.kind))
  const tasks: TaskDefinition[] = [
    { id: 1, title: 'signUp', reward: '5', done: () => true },
    { id: 2, title: 'firstDeposit', reward: '10', done: (user) => hasRecord(user, ['deposit']) },
    { id: 3, title: 'verifyIdentity', reward: '5', done: (user) => user.kycLevel >= 1 },
    {
      id: 4,
      title: 'firstTrade',
      reward: '5',
      done: (user) => hasRecord(user, ['spot', 'contract', 'second']),
    },
  ]
  const taskView = (user: User, task: TaskDefinition): WelfareTask => ({
    id: task.id,
    title: task.title,
    reward: task.reward,
    coin: QUOTE_COIN,
    status: claimed.get(user.id)?.has(task.id) ? 'claimed' : task.done(user) ? 'claimable' : 'todo',
  })

  return {
    welfareTasks: ({ user }) => tasks.map((task) => taskView(user, task)),

    welfareClaim: ({ user, query }) => {
      const task = tasks.find((row) => String(row.id) === query.id) ?? refuse('unknownTask')
      if (taskView(user, task).status !== 'claimable') return refuse('taskNotClaimable')
      const reward = toDecimal(task.reward)
      ledger.apply({
        kind: 'bonus',
        note: `welfare reward: ${task.title}`,
        legs: [
          { pool: 'outside', coin: QUOTE_COIN, amount: reward.negated() },
          { userId: user.id, account: 'platform', coin: QUOTE_COIN, available: reward },
        ],
      })
      const set = claimed.get(user.id) ?? new Set<number>()
      set.add(task.id)
      claimed.set(user.id, set)
      return taskView(user, task)
    },
  }
}
