import type { TObject, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'
import { Type } from 'typebox'
import {
  amountFieldsOf,
  bodyLimitOf,
  wholeFieldsOf,
  type AmountField,
  type CachePolicy,
  type CallDefinition,
  type CallName,
  type WholeField,
} from '@tradegate/shared'
import { GatewayError } from '../lib/errors'

// Everything a route needs that does not change per request, worked out once when the route is registered.

export interface CallRoute {
  name: CallName
  definition: CallDefinition
  /** metric and log label: the call's path pattern */
  label: string
  /** the call's schemas from the table, validated by Fastify with `callSchemaCompiler` */
  schema: FastifySchema
  cache: CachePolicy | null
  multipart: boolean
  /** largest body read; for uploads the deployment's upload limit */
  bodyLimit: number
  /** request headers passed upstream; a cached answer is shared by everyone, so it never carries a session */
  forwardedHeaders: readonly string[]
  /** the fields the money rule judges */
  amountFields: readonly AmountField[]
  /** the body's whole-number fields, judged by their written text */
  wholeFields: readonly WholeField[]
}

const SESSION_HEADERS = ['satoken', 'language', 'lang'] as const
const PUBLIC_HEADERS = ['language', 'lang'] as const
// a call without query parameters refuses any it is sent, as a call with some refuses unknown ones
const NO_QUERY = Type.Object({}, { additionalProperties: false })

export function prepareCallRoute(name: CallName, definition: CallDefinition, uploadLimit: number): CallRoute {
  const cache = definition.method === 'GET' && definition.cache ? definition.cache : null
  const schema: FastifySchema = {}
  if (definition.params) schema.params = definition.params
  schema.querystring = definition.query ?? NO_QUERY
  if (definition.body) schema.body = definition.body
  return {
    name,
    definition,
    label: definition.path,
    schema,
    cache,
    multipart: definition.bodyType === 'multipart',
    bodyLimit: bodyLimitOf(definition) ?? uploadLimit,
    forwardedHeaders: cache ? PUBLIC_HEADERS : SESSION_HEADERS,
    amountFields: amountFieldsOf(definition),
    wholeFields: wholeFieldsOf(definition),
  }
}

// Fastify names the query part `querystring`; answers name it as the client wrote it
const PART_NAMES: Record<string, string> = { querystring: 'query', params: 'params', body: 'body' }

/**
 * Fastify's validator for the call table's TypeBox schemas: the compiled check on every request, and on a
 * failure only the first invalid field, found without walking every error of the value.
 */
export const callSchemaCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const where = PART_NAMES[httpPart ?? ''] ?? httpPart ?? 'request'
  // compiled on the route's first request: an instance holds the checks of the calls it has served, not
  // the whole table's (a compiled check is generated code, kept for the life of the process)
  let check: { Check(value: unknown): boolean } | null = null
  const firstInvalid = firstInvalidFieldFinder(schema)
  return (value: unknown) =>
    (check ??= compiledCheck(schema)).Check(value)
      ? { value }
      : { error: new GatewayError(400, 'badRequest', firstInvalid(value, where)) }
}

const compiledChecks = new WeakMap<TSchema, { Check(value: unknown): boolean }>()

/** One compiled check per schema object, however many places ask for it. */
export function compiledCheck(schema: TSchema): { Check(value: unknown): boolean } {
  let check = compiledChecks.get(schema)
  if (!check) compiledChecks.set(schema, (check = Compile(schema)))
  return check
}

/**
 * For an object schema: the first unknown key, else the first missing one, else the first whose value fails,
 * each in the order the value or the schema lists them; `where` alone for anything else.
 */
function firstInvalidFieldFinder(schema: TSchema): (value: unknown, where: string) => string {
  const object = schema as Partial<TObject>
  if (object.type !== 'object' || !object.properties) return (_value, where) => where
  const properties = object.properties
  const required = new Set(object.required ?? [])
  const clauseField = clauseFieldFinder(schema)
  // compiled on the first refusal, so starting the gateway compiles one validator per schema
  let checks: Array<{ key: string; check: { Check(value: unknown): boolean } }> | null = null
  return (value, where) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return where
    const record = value as Record<string, unknown>
    for (const key in record) if (!Object.hasOwn(properties, key)) return `${where}.${key}`
    checks ??= Object.entries(properties).map(([key, property]) => ({ key, check: Compile(property) }))
    for (const { key, check } of checks) {
      if (!Object.hasOwn(record, key)) {
        if (required.has(key)) return `${where}.${key}`
        continue
      }
      if (!check.Check(record[key])) return `${where}.${key}`
    }
    const clauseKey = clauseField(record)
    return clauseKey === undefined ? where : `${where}.${clauseKey}`
  }
}

interface ConditionalClause {
  if?: TSchema
  then?: { properties?: Record<string, TSchema>; required?: string[] }
}

/**
 * For a schema whose `allOf` holds `if`/`then` clauses (a withdrawal address held to the format of its
 * network): the first field a clause that applies refuses, missing or invalid.
 */
function clauseFieldFinder(schema: TSchema): (record: Record<string, unknown>) => string | undefined {
  const clauses = ((schema as { allOf?: ConditionalClause[] }).allOf ?? []).filter(
    (clause) => clause.if && clause.then,
  )
  // compiled on the first refusal, like the field checks
  const compile = () =>
    clauses.map((clause) => ({
      applies: Compile(clause.if!),
      required: clause.then!.required ?? [],
      fields: Object.entries(clause.then!.properties ?? {}).map(([key, property]) => ({
        key,
        check: Compile(property),
      })),
    }))
  let compiled: ReturnType<typeof compile> | null = null
  return (record) => {
    compiled ??= compile()
    for (const clause of compiled) {
      if (!clause.applies.Check(record)) continue
      const missing = clause.required.find((key) => !Object.hasOwn(record, key))
      if (missing) return missing
      const invalid = clause.fields.find(
        ({ key, check }) => Object.hasOwn(record, key) && !check.Check(record[key]),
      )
      if (invalid) return invalid.key
    }
    return undefined
  }
}

/** Query text with keys sorted, so equal queries make equal cache keys. */
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
