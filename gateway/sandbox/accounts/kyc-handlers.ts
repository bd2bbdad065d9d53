import type { Handlers, UploadedFile } from '../api/handler'
import { refuse } from '../api/refusal'
import type { SandboxState } from '../state'

// Identity verification: applications wait in a map until the control API reviews them.

export interface KycApplication {
  userId: string
  level: number
  realName: string
  idNumber: string
  country?: string
  files: UploadedFile[]
}

export function kycHandlers(
  { settings, publish }: SandboxState,
  kycApplications: Map<string, KycApplication>,
): Pick<Handlers, 'uploadKYC'> {
  return {
    uploadKYC: ({ user, query, files }) => {
      const limits = settings.current.AUTH_LIMIT
      const level = query.level === 'primary' ? 1 : 2
      if (level === 1 && !limits.primaryOpen) return refuse('kycClosed')
      if (level === 2 && !limits.seniorOpen) return refuse('kycClosed')
      if (user.kycStatus === 'pending') return refuse('kycPending')
      if (user.kycLevel >= level) return refuse('kycAlreadyApproved')
      if (level === 2 && user.kycLevel < 1) return refuse('primaryKycRequired')
      if (level === 2 && files.length === 0) return refuse('documentRequired')
      if (files.some((file) => !file.mimetype.startsWith('image/'))) return refuse('documentNotImage')
      kycApplications.set(user.id, {
        userId: user.id,
        level,
        realName: query.realName,
        idNumber: query.idNumber,
        ...(query.country ? { country: query.country } : {}),
        files,
      })
      user.kycStatus = 'pending'
      user.kycRequestedLevel = level
      publish('USER_STATUS', user.id, { kycStatus: user.kycStatus, kycLevel: user.kycLevel })
      return { kycStatus: user.kycStatus, kycLevel: user.kycLevel }
    },
  }
}
