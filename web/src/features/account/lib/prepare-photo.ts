import { LIMITS } from '@tradegate/shared'

/** Photos up to this size go up as they are; bigger ones are scaled down first, so uploads stay quick. */
const SEND_AS_IS_BYTES = 1.5 * 1024 * 1024
/** A document stays legible at this many pixels on its long side. */
const LONG_SIDE_STEPS = [2560, 2048, 1600] as const
const JPEG_QUALITY = 0.85

export type PhotoProblem = 'documentNotImage' | 'fileTooLarge'

export class PhotoRefused extends Error {
  constructor(readonly problem: PhotoProblem) {
    super(problem)
  }
}

/**
 * Checks a document photo before it is uploaded and scales a large one down in the browser (a phone
 * photo of 2–5 MB becomes a JPEG of a few hundred KB, still legible), so it fits the upload limit.
 */
export async function preparePhoto(file: File): Promise<File> {
  if (!file.type.startsWith('image/')) throw new PhotoRefused('documentNotImage')
  if (file.size <= SEND_AS_IS_BYTES) return file
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    // a format this browser cannot decode (e.g. HEIC on many desktops) can still go up if small enough
    if (file.size <= LIMITS.uploadMaxBytes) return file
    throw new PhotoRefused('fileTooLarge')
  }
  try {
    for (const longSide of LONG_SIDE_STEPS) {
      const blob = await drawScaled(bitmap, longSide)
      if (blob && blob.size <= LIMITS.uploadMaxBytes) {
        const name = file.name.replace(/\.[^.]*$/, '') || 'document'
        return new File([blob], `${name}.jpg`, { type: 'image/jpeg', lastModified: file.lastModified })
      }
    }
  } finally {
    bitmap.close()
  }
  throw new PhotoRefused('fileTooLarge')
}

function drawScaled(bitmap: ImageBitmap, longSide: number): Promise<Blob | null> {
  const scale = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height))
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(bitmap.width * scale))
  canvas.height = Math.max(1, Math.round(bitmap.height * scale))
  const context = canvas.getContext('2d')
  if (!context) return Promise.resolve(null)
  // white under a transparent PNG, which JPEG cannot keep
  context.fillStyle = '#fff'
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.imageSmoothingQuality = 'high'
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY))
}
