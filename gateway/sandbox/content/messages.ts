import type { Message } from '@tradegate/shared'
import { idSequence } from '../ids'
import type { MessageTitle } from './titles'

// The in-site messages a user receives when something happens to their account.

export class MessageBox {
  private readonly byUser = new Map<string, Message[]>()
  private readonly nextId = idSequence()

  constructor(private readonly clock: () => number) {}

  post(userId: string, title: MessageTitle, content: string): void {
    const list = this.byUser.get(userId) ?? []
    list.unshift({ id: this.nextId(), title, content, read: false, createdAt: this.clock() })
    this.byUser.set(userId, list)
  }

  list(userId: string): Message[] {
    return this.byUser.get(userId) ?? []
  }
}
