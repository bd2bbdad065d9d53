import type { UserType } from '@tradegate/shared'
import type { NoticeLog } from './accounts/notices'
import type { UserDirectory } from './accounts/users'
import type { MessageBox } from './content/messages'
import type { SettingsStore } from './content/settings'
import type { Market } from './markets/market'
import type { Ledger } from './money/ledger'
import type { ProfitBook } from './money/profits'

// What every domain of the sandbox shares: the clock, the market, the users and the book.

export type PublishUserEvent = (type: UserType, userId: string, data: Record<string, unknown>) => void

export interface SandboxState {
  clock: () => number
  market: Market
  users: UserDirectory
  ledger: Ledger
  settings: SettingsStore
  messages: MessageBox
  profits: ProfitBook
  publish: PublishUserEvent
  /** the users' recent events, which publish carries as `event` and userNotices answers */
  notices: NoticeLog
}

// the domains that import SandboxState from here take their id sequences from here too
export { idSequence } from './ids'
