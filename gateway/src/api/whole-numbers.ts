import { isWholeText, type WholeField } from '@tradegate/shared'
import { GatewayError } from '../lib/errors'
import { numberTextOf } from './amounts'

/**
 * Throws 400 `badRequest` naming the first whole-number field of a JSON body whose text as written is
 * not a plain whole number within its bounds: `9007199254740993` is judged as written, not as the
 * float 9007199254740992, and `1e2` or `100.0000000000000001` is not taken for 100. A field that is
 * not a JSON number is left to the schema.
 */
export function checkWholeNumbers(
  fields: readonly WholeField[],
  body: unknown,
  rawJson: string | null,
): void {
  if (rawJson === null || typeof body !== 'object' || body === null) return
  const values = body as Record<string, unknown>
  for (const { key, bounds } of fields) {
    if (!Object.hasOwn(values, key) || typeof values[key] !== 'number') continue
    const text = numberTextOf(rawJson, key)
    if (text === null || !isWholeText(text, bounds)) throw new GatewayError(400, 'badRequest', `body.${key}`)
  }
}
