import { OPTION_RULE_KEYS } from '@tradegate/shared'
import type { UploadedFile, Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import { HELP_ARTICLES, NOTICES, OPTION_RULES } from './articles'
import { optionRulesIn } from './option-rules'
import { uploadHandlers } from './upload-handlers'
import { welfareHandlers } from './welfare-handlers'

// Settings, notices, rules, help and messages; welfare tasks and file uploads in their own modules.

type ReadingCalls =
  'getAllSetting' | 'noticeList' | 'optionRules' | 'helpList' | 'helpDetail' | 'messageList' | 'messageRead'

export function contentHandlers(state: SandboxState, uploads: Map<string, UploadedFile>) {
  return {
    ...readingHandlers(state),
    ...welfareHandlers(state),
    ...uploadHandlers(uploads),
  } satisfies Partial<Handlers>
}

function readingHandlers({ messages, settings }: SandboxState): Pick<Handlers, ReadingCalls> {
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
  }
}
