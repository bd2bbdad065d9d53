import type { Handlers, UploadedFile } from '../api/handler'
import { refuse } from '../api/refusal'
import { idSequence } from '../state'

// File uploads, kept in memory and served back by the control routes under UPLOADS_PATH.

export const UPLOADS_PATH = '/sandbox/uploads'
/** Past this many stored bytes the oldest uploads are forgotten, so memory stays bounded. */
const UPLOADS_MAX_BYTES = 64 * 1024 * 1024

export function uploadHandlers(uploads: Map<string, UploadedFile>): Pick<Handlers, 'uploadOSS'> {
  const nextUploadId = idSequence()
  return {
    uploadOSS: ({ files }) => {
      const [file] = files
      if (!file || files.length !== 1) return refuse('exactlyOneFileRequired')
      const id = `${nextUploadId()}-${file.filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(-60)}`
      uploads.set(id, file)
      let stored = 0
      for (const entry of uploads.values()) stored += entry.bytes.length
      for (const [oldest, entry] of uploads) {
        if (stored <= UPLOADS_MAX_BYTES) break
        uploads.delete(oldest)
        stored -= entry.bytes.length
      }
      return { url: `${UPLOADS_PATH}/${encodeURIComponent(id)}` }
    },
  }
}
