// The one decoder of URL-encoded text, for query strings and form bodies alike: a value the gateway
// checks must be the text the upstream will read, so an escape that is not UTF-8 (`%D6%D0`, read as
// GBK by one server and as replacement characters by another) or not an escape at all (`%ZZ`, a lone
// `%`) makes the whole text undecodable instead of being kept as written.

export type UrlEncodedValues = Record<string, string | string[]>

const PLUS = /\+/g

/**
 * The pairs of `a=1&b=2` text, `+` read as a space, a repeated name as an array of its values (which
 * every schema refuses); null when any name or value does not decode.
 */
export function decodeUrlEncoded(text: string): UrlEncodedValues | null {
  // no prototype, so a name such as `__proto__` is a value like any other
  const values = Object.create(null) as UrlEncodedValues
  if (text.length === 0) return values
  for (const pair of text.split('&')) {
    if (pair.length === 0) continue
    const equals = pair.indexOf('=')
    const name = decodeComponent(equals < 0 ? pair : pair.slice(0, equals))
    const value = decodeComponent(equals < 0 ? '' : pair.slice(equals + 1))
    if (name === null || value === null) return null
    const earlier = values[name]
    if (earlier === undefined) values[name] = value
    else if (Array.isArray(earlier)) earlier.push(value)
    else values[name] = [earlier, value]
  }
  return values
}

function decodeComponent(text: string): string | null {
  const spaced = text.includes('+') ? text.replace(PLUS, ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    // throws on a malformed escape and on bytes that are not UTF-8
    return decodeURIComponent(spaced)
  } catch {
    return null
  }
}

/** What the query parser gives a query string that does not decode; the route refuses it as a whole. */
export const UNDECODABLE_QUERY: UrlEncodedValues = Object.freeze(Object.create(null) as UrlEncodedValues)

/** Fastify's query parser: never throws (it runs inside routing), so undecodable text is marked instead. */
export function parseQuery(text: string): UrlEncodedValues {
  return decodeUrlEncoded(text) ?? UNDECODABLE_QUERY
}
