// Plain values the schemas are built from, importable without the schema library (the client's forms).

/** A non-negative decimal amount as text; money never travels as a float. */
export const MONEY_TEXT_PATTERN = '^[0-9]{1,20}(\\.[0-9]{1,18})?$'
/** SPEC §5: an 11-digit mainland-style mobile number (optional 86 or +86 prefix) or a 0-led landline of 10 to 13 digits. */
export const PHONE_PATTERN = '^(?:(?:\\+?86)?1[0-9]{10}|0[0-9]{9,12})$'
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
