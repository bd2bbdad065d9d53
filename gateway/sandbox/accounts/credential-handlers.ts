import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import type { User } from './users'

// Passwords: changing and recovering the login password, setting and changing the fund password. A
// new login or fund password signs every session of the user out, and the feed says so.

type CredentialCalls = 'updateUserLoginPwd' | 'backPwd' | 'tardPwdSet' | 'updatePwd'

export function credentialHandlers({ users, publish }: SandboxState): Pick<Handlers, CredentialCalls> {
  const signOutEverywhere = (user: User): void => {
    users.expireSessions(user.id)
    publish('USER_STATUS', user.id, { status: 'logout' })
  }
  const changeLoginPassword = (user: User, oldPassword: string, newPassword: string): void => {
    if (!users.checkPassword(user, oldPassword)) refuse('wrongPassword')
    if (oldPassword === newPassword) refuse('samePassword')
    users.setPassword(user, newPassword)
    signOutEverywhere(user)
  }

  return {
    updateUserLoginPwd: ({ user, query }) => {
      if (query.userId !== undefined && query.userId !== user.id) return refuse('notYourAccount')
      changeLoginPassword(user, query.oldPwd, query.newPwd)
      return null
    },

    backPwd: ({ query }) => {
      const user = users.byName(query.email)
      if (!user || user.email?.toLowerCase() !== query.email.toLowerCase()) return refuse('unknownEmail')
      users.useCode(query.email, query.emailCode)
      users.setPassword(user, query.newPwd)
      signOutEverywhere(user)
      return null
    },

    tardPwdSet: ({ user, query }) => {
      if (user.fundPasswordHash !== null) return refuse('fundPasswordAlreadySet')
      // whether one is needed at all the call table says (register-calls); one sent is always checked
      if (query.code !== undefined) users.useCode(codeTargetOf(user), query.code)
      users.setFundPassword(user, query.pwd)
      return null
    },

    updatePwd: ({ user, query }) => {
      if (query.signType === 'login') {
        changeLoginPassword(user, query.oldPwd, query.newPwd)
        return null
      }
      if (!users.checkFundPassword(user, query.oldPwd)) return refuse('wrongFundPassword')
      if (query.code !== undefined) users.useCode(codeTargetOf(user), query.code)
      users.setFundPassword(user, query.newPwd)
      signOutEverywhere(user)
      return null
    },
  }
}

/** Where a fund-password code goes: the bound e-mail, or without one the bound phone. */
function codeTargetOf(user: User): string {
  return user.email ?? user.phone ?? ''
}
