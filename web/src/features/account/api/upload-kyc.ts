import type { CallQuery } from '@tradegate/shared'
import { uploadWithProgress } from '../../../lib/http'

export function uploadKyc(
  query: CallQuery<'uploadKYC'>,
  document: File | null,
  onProgress: (percent: number) => void,
) {
  return uploadWithProgress('uploadKYC', { query, files: document ? { file: document } : {} }, onProgress)
}
