import type { Handlers } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'
import type { User } from './users'

// E-mail and phone: sending codes, binding and unbinding, and the country codes phones are dialled with.

const COUNTRY_CODES = [
  { name: 'China', code: '86' },
  { name: 'Hong Kong', code: '852' },
  { name: 'Japan', code: '81' },
  { name: 'Korea', code: '82' },
  { name: 'Thailand', code: '66' },
  { name: 'Vietnam', code: '84' },
  { name: 'United States', code: '1' },
  { name: 'United Kingdom', code: '44' },
  { name: 'Germany', code: '49' },
  { name: 'France', code: '33' },
  { name: 'Brazil', code: '55' },
  { name: 'Russia', code: '7' },
]

type ContactCalls =
  'sendEmailCode' | 'bindEmail' | 'getCountryCode' | 'sendMobileCode' | 'bindPhone' | 'unBindPhone'

export function contactHandlers({ users }: SandboxState): Pick<Handlers, ContactCalls> {
  /** Binds a not yet bound e-mail or phone once its code checks out. */
  const bindContact = (user: User, field: 'email' | 'phone', value: string, code: string): null => {
    if (user[field]) return refuse(field === 'email' ? 'emailAlreadyBound' : 'phoneAlreadyBound')
    users.useCode(value, code)
    users.rename(user, field, value)
    return null
  }

  return {
    sendEmailCode: ({ query }) => {
      users.issueCode(query.email)
      return null
    },

    bindEmail: ({ user, query }) => bindContact(user, 'email', query.email, query.emailCode),

    getCountryCode: () => COUNTRY_CODES,

    sendMobileCode: ({ query }) => {
      users.issueCode(query.phone)
      return null
    },

    bindPhone: ({ user, query }) => bindContact(user, 'phone', query.phone, query.code),

    unBindPhone: ({ user, query }) => {
      if (!user.phone) return refuse('phoneNotBound')
      if (user.loginType === 'phone') return refuse('phoneIsLoginName')
      users.useCode(user.phone, query.code)
      users.rename(user, 'phone', undefined)
      return null
    },
  }
}
