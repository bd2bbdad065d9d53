import { toDecimal } from '@tradegate/shared'
import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'

// What a user reads of itself: its info and balances, saved withdraw addresses, invitations and team.

export const INVITE_URL_BASE = '/#/register?inviteCode='

type ProfileCalls =
  'updateWithdrawAddress' | 'withdrawAddress' | 'getInfo' | 'userInfo' | 'inviteInfo' | 'inviteTeam'

export function profileHandlers({ users, ledger }: SandboxState): Pick<Handlers, ProfileCalls> {
  return {
    updateWithdrawAddress: ({ user, query }) => {
      if (
        user.withdrawAddresses.some((entry) => entry.address === query.address && entry.type === query.type)
      ) {
        return refuse('addressAlreadySaved')
      }
      users.addWithdrawAddress(user, query.type, query.address)
      return null
    },

    withdrawAddress: ({ user }) => user.withdrawAddresses,

    getInfo: ({ user }) => ({ user: users.toInfo(user), asset: ledger.balances(user.id) }),

    userInfo: ({ user }) => users.toInfo(user),

    inviteInfo: ({ user }) => {
      const rebates = ledger.records(user.id).filter((record) => record.kind === 'rebate')
      const rebateTotal = rebates.reduce((total, record) => total.plus(record.amount), toDecimal(0))
      return {
        inviteCode: user.inviteCode,
        inviteUrl: `${INVITE_URL_BASE}${user.inviteCode}`,
        teamSize: users.invitees(user.id).length,
        rebateTotal: rebateTotal.toFixed(),
      }
    },

    inviteTeam: ({ user, query }) =>
      page(
        users
          .invitees(user.id)
          .map((member) => ({ userId: member.id, username: member.username, createdAt: member.createdAt })),
        query,
      ),
  }
}
