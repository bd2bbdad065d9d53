import type { UploadedFile, Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import { helpArticlesIn, noticesIn, rulesIn } from './articles'
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

    noticeList: ({ query, language }) =>
      noticesIn(language).filter(
        (notice) => notice.key === query.key && (!query.modelKey || notice.modelKey === query.modelKey),
      ),

    optionRules: ({ query, language }) => rulesIn(query.key, language),

    helpList: ({ language }) => helpArticlesIn(language),

    helpDetail: ({ query, language }) =>
      helpArticlesIn(language).find((article) => String(article.id) === query.id) ??
      refuse('articleNotFound'),

    messageList: ({ user, query }) => page(messages.list(user.id), query),

    messageRead: ({ user, query }) => {
      const message =
        messages.list(user.id).find((row) => String(row.id) === query.id) ?? refuse('messageNotFound')
      message.read = true
      return message
    },
  }
}
