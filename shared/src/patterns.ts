// Plain values the schemas are built from, importable without the schema library (the client's forms).

/** SPEC §5: an 11-digit mainland-style mobile number (optional 86 or +86 prefix) or a 0-led landline of 10 to 13 digits. */
export const PHONE_PATTERN = '^(?:(?:\\+?86)?1[0-9]{10}|0[0-9]{9,12})$'
/** The file types an upload call takes as files (documents are photographed); any other part is text. */
export const UPLOAD_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/heic',
  'image/heif',
  'image/avif',
] as const
export const PASSWORD_LENGTH = Object.freeze({ min: 6, max: 64 })

/** Every kind of balance movement the records show; the client translates each one. */
export const RECORD_KINDS = [
  'deposit',
  'withdraw',
  'transfer',
  'exchange',
  'spot',
  'contract',
  'second',
  'follow',
  'trader',
  'rebate',
  'bonus',
  'finance',
  'proxy',
  'option',
] as const
export type RecordKind = (typeof RECORD_KINDS)[number]
