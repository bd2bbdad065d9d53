import { OPTION_RULE_KEYS, toDecimal, type WelfareTask } from '@tradegate/shared'
import type { UploadedFile, Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { User } from '../accounts/users'
import { QUOTE_COIN } from '../markets/catalogue'
import { idSequence, type SandboxState } from '../state'
import { HELP_ARTICLES, NOTICES, OPTION_RULES } from './articles'
import { optionRulesIn } from './option-rules'
import type { WelfareTaskTitle } from './titles'

// Settings, notices, rules, help, messages, welfare tasks and file uploads.

export const UPLOADS_PATH = '/sandbox/uploads'
/** Past this many stored bytes the oldest uploads are forgotten, so memory stays bounded. */
const UPLOADS_MAX_BYTES = 64 * 1024 * 1024

interface TaskDefinition {
  id: number
  title: WelfareTaskTitle
  reward: string
  done: (user: User) => boolean
}

type ContentCalls =
  | 'getAllSetting'
  | 'noticeList'
  | 'optionRules'
  | 'helpList'
  | 'helpDetail'
  | 'messageList'
  | 'messageRead'
  | 'welfareTasks'
  | 'welfareClaim'
  | 'uploadOSS'

export function contentHandlers(
  state: SandboxState,
  uploads: Map<string, UploadedFile>,
): Pick<Handlers, ContentCalls> {
  const { ledger, messages, settings } = state
  const claimed = new Map<string, Set<number>>()
  const nextUploadId = idSequence()
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
    getAllSetting: () => settings.current,

    noticeList: ({ query }) =>
      NOTICES.filter(
        (notice) => notice.key === query.key && (!query.modelKey || notice.modelKey === query.modelKey),
      ),

    optionRules: ({ query, language }) =>
      query.key === OPTION_RULE_KEYS.option ? optionRulesIn(language) : [...(OPTION_RULES[query.key] ?? [])],

    helpList: () => [...HELP_ARTICLES],

    helpDetail: ({ query }) =>
      HELP_ARTICLES.find((article) => String(article.id) === query.id) ?? refuse('articleNotFound'),

    messageList: ({ user, query }) => page(messages.list(user.id), query),

    messageRead: ({ user, query }) => {
      const message =
        messages.list(user.id).find((row) => String(row.id) === query.id) ?? refuse('messageNotFound')
      message.read = true
      return message
    },

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

    uploadOSS: ({ files }) => {
      const [file] = files
      if (!file || files.length !== 1) return refuse('exactlyOneFileRequired')
      const id = `${nextUploadId()}-${file.filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(-60)}`
      uploads.set(id, file)
      let stored = 0
      for (const entry of uploads.values()) stored += entry.bytes.length
      for (const [oldest, entry] of uploads) {
        if (stored <= UPLOADS_MAX_BYTES) break
        uploads.delete(oldest)
        stored -= entry.bytes.length
      }
      return { url: `${UPLOADS_PATH}/${encodeURIComponent(id)}` }
    },
  }
}
