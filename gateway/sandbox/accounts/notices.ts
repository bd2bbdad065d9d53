import type { UserNotice } from '@tradegate/shared'

// Each user's recent events (shared/src/notices.ts): published inside the per-user frame that carries
// the change, and kept here for the userNotices call, with which a page finds what it missed.

export type NoticeFields = Omit<UserNotice, 'id' | 'at'>

/** Enough for any gap a page can have; older events are in the records and histories. */
const KEPT_PER_USER = 100
/** What one userNotices answer holds at most. */
export const NOTICES_PER_ANSWER = 50

export class NoticeLog {
  private readonly byUser = new Map<string, UserNotice[]>()
  private next = 1

  constructor(private readonly clock: () => number) {}

  /** Records an event of the user's and returns it with its id and time, to publish. */
  add(userId: string, fields: NoticeFields): UserNotice {
    const notice = { id: `n${this.next++}`, at: this.clock(), ...fields }
    const list = this.byUser.get(userId) ?? []
    list.unshift(notice)
    if (list.length > KEPT_PER_USER) list.length = KEPT_PER_USER
    this.byUser.set(userId, list)
    return notice
  }

  /** The user's events at or after `since` (epoch ms), newest first. */
  since(userId: string, since: number): UserNotice[] {
    return (this.byUser.get(userId) ?? []).filter((row) => row.at >= since).slice(0, NOTICES_PER_ANSWER)
  }
}
