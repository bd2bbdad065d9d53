import type { Handlers } from '../api/handler'
import type { SandboxState } from '../state'
import { contactHandlers } from './contact-handlers'
import { credentialHandlers } from './credential-handlers'
import { kycHandlers, type KycApplication } from './kyc-handlers'
import { profileHandlers } from './profile-handlers'
import { sessionHandlers } from './session-handlers'

// Sign-up, sign-in, passwords, bindings, identity verification, withdraw addresses and invitations,
// each group in its own module.

export function accountHandlers(state: SandboxState, kycApplications: Map<string, KycApplication>) {
  return {
    ...sessionHandlers(state),
    ...credentialHandlers(state),
    ...contactHandlers(state),
    ...kycHandlers(state, kycApplications),
    ...profileHandlers(state),
  } satisfies Partial<Handlers>
}
