import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { CachePolicy, CallDefinition, CallName } from '@tradegate/shared'

// Everything a route needs that does not change per request, worked out once when the route is registered.

type Validator = ReturnType<typeof Compile<TSchema>>

export interface CallRoute {
  name: CallName
  definition: CallDefinition
  /** metric and log label: the call's path pattern */
  label: string
  query: Validator | null
  body: Validator | null
  params: Validator | null
  cache: CachePolicy | null
  multipart: boolean
  /** request headers passed upstream; a cached answer is shared by everyone, so it never carries a session */
  forwardedHeaders: readonly string[]
}

const SESSION_HEADERS = ['satoken', 'language', 'lang'] as const
const PUBLIC_HEADERS = ['language', 'lang'] as const

export function prepareCallRoute(name: CallName, definition: CallDefinition): CallRoute {
  const cache = definition.method === 'GET' && definition.cache ? definition.cache : null
  return {
    name,
    definition,
    label: definition.path,
    query: definition.query ? Compile(definition.query) : null,
    body: definition.body ? Compile(definition.body) : null,
    params: definition.params ? Compile(definition.params) : null,
    cache,
    multipart: definition.bodyType === 'multipart',
    forwardedHeaders: cache ? PUBLIC_HEADERS : SESSION_HEADERS,
  }
}

/** The first invalid field as `where.field`, or null when the value passes. */
export function firstInvalidField(validator: Validator, value: unknown, where: string): string | null {
  if (validator.Check(value)) return null
  for (const error of validator.Errors(value)) {
    const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] }
    const field =
      params.requiredProperties?.[0] ??
      params.additionalProperties?.[0] ??
      error.instancePath.replace(/^\//, '').replaceAll('/', '.')
    return field ? `${where}.${field}` : where
  }
  return where
}

/** Query text with keys sorted, so equal queries make equal cache keys and equal upstream URLs. */
export function canonicalQuery(query: Record<string, unknown>): string {
  const keys = Object.keys(query).sort()
  let text = ''
  for (const key of keys) {
    const value = query[key]
    if (value === undefined) continue
    text += `${text ? '&' : ''}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`
  }
  return text
}
