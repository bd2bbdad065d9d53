import { describe, expect, it } from 'vitest'
import {
  CALLS,
  CALL_NAMES,
  FAILURE_CODE,
  TOKEN_EXPIRED_CODE,
  TOKEN_EXPIRED_MESSAGE,
  type CallDefinition,
} from '@tradegate/shared'
import { mayEndSessions, sessionEndOf } from '../../src/upstream/session-end'

// Which answers end a user's sessions is read from the call table: a call it marks ends them by its
// answer, whatever its name, and a call it does not mark never does, but for a token-expired answer.

const answer = (envelope: object) => Buffer.from(JSON.stringify(envelope))
const succeeded = answer({ code: 200, msg: 'success', data: null })
const refused = answer({ code: FAILURE_CODE, msg: 'wrongPassword', data: null })
const expired = answer({ code: TOKEN_EXPIRED_CODE, msg: TOKEN_EXPIRED_MESSAGE })
const definitions = CALL_NAMES.map((name) => [name, CALLS[name] as CallDefinition] as const)

describe('session ends from the call table', () => {
  it('ends the sessions on the answer of every call the table marks, as it marks it', () => {
    const marked = definitions.filter(([, definition]) => definition.endsSessions !== undefined)
    expect(marked.length).toBeGreaterThan(0)
    for (const [name, definition] of marked) {
      expect(mayEndSessions(definition), name).toBe(true)
      expect(sessionEndOf(definition, succeeded), name).toBe('revoked')
      // a sign-out ends them whatever the upstream said; a refused password change ends none
      expect(sessionEndOf(definition, refused), name).toBe(
        definition.endsSessions === 'always' ? 'revoked' : null,
      )
      expect(sessionEndOf(definition, expired), name).toBe('expired')
    }
  })

  it('ends none on the answer of a call the table does not mark, but for a token-expired one', () => {
    for (const [name, definition] of definitions) {
      if (definition.endsSessions !== undefined) continue
      expect(mayEndSessions(definition), name).toBe(false)
      expect(sessionEndOf(definition, succeeded), name).toBeNull()
      expect(sessionEndOf(definition, refused), name).toBeNull()
      expect(sessionEndOf(definition, expired), name).toBe('expired')
    }
  })

  it('takes a call the table newly marks without a change here', () => {
    const marked: CallDefinition = { ...CALLS.userInfo, endsSessions: 'onSuccess' }
    expect(sessionEndOf(marked, succeeded)).toBe('revoked')
    expect(sessionEndOf(CALLS.userInfo, succeeded)).toBeNull()
  })
})
