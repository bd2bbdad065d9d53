import type { AddressEntry } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import { idSequence, type SandboxState } from '../state'

// Each user's withdrawal address book: entries are added, labelled and removed on their own, and the
// withdraw screen picks from them; a withdrawal never adds one.

/** Enough for every network a user withdraws to, few enough to pick from. */
const MAX_ENTRIES = 50

interface StoredEntry extends AddressEntry {
  userId: string
}

type AddressBookCalls = 'addressBook' | 'addressBookAdd' | 'addressBookRemove'

export function addressBookHandlers(state: SandboxState): Pick<Handlers, AddressBookCalls> {
  const entries: StoredEntry[] = []
  const nextId = idSequence()
  const own = (userId: string) => entries.filter((entry) => entry.userId === userId)
  const view = ({ userId: _owner, ...entry }: StoredEntry): AddressEntry => entry

  return {
    addressBook: ({ user }) => own(user.id).map(view),

    addressBookAdd: ({ user, body }) => {
      const mine = own(user.id)
      const memo = body.memo ?? ''
      if (
        mine.some(
          (entry) => entry.network === body.network && entry.address === body.address && entry.memo === memo,
        )
      )
        refuse('addressAlreadySaved')
      if (mine.length >= MAX_ENTRIES) refuse('addressBookFull')
      const entry: StoredEntry = {
        id: nextId(),
        network: body.network,
        address: body.address,
        memo,
        label: body.label.trim(),
        createdAt: state.clock(),
        userId: user.id,
      }
      entries.push(entry)
      return view(entry)
    },

    addressBookRemove: ({ user, query }) => {
      const index = entries.findIndex((entry) => entry.userId === user.id && String(entry.id) === query.id)
      if (index === -1) return refuse('unknownAddress')
      entries.splice(index, 1)
      return null
    },
  }
}
