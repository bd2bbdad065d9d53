import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import {
  CALLS,
  CALL_NAMES,
  FAILURE_CODE,
  TOKEN_EXPIRED_CODE,
  TOKEN_EXPIRED_MESSAGE,
  TOKEN_HEADER,
  lacksVerificationCode,
  type CallDefinition,
  type CallName,
} from '@tradegate/shared'
import type { UserDirectory } from '../accounts/users'
import type { SettingsStore } from '../content/settings'
import type { CallContext, Handlers, UploadedFile } from './handler'
import { Refusal } from './refusal'

// Serves every call of the table at its method and path: token check, input check, envelope.

export const SUCCESS_CODE = 200
const MAX_UPLOAD_FILES = 5

export function registerCalls(
  app: FastifyInstance,
  handlers: Handlers,
  users: UserDirectory,
  settings: SettingsStore,
): void {
  for (const name of CALL_NAMES) {
    const call: CallDefinition = CALLS[name]
    app.route({
      method: call.method,
      url: call.path,
      handler: async (request) => {
        const header = request.headers[TOKEN_HEADER]
        const user = users.userOfToken(typeof header === 'string' ? header : undefined)
        if (call.auth && !user) return { code: TOKEN_EXPIRED_CODE, msg: TOKEN_EXPIRED_MESSAGE }
        try {
          const query = request.query ?? {}
          // the code rule of the table, before the schema, as the gateway holds it
          if (call.verificationCode)
            requireCode(call.verificationCode, query, settings.current.VERIFY_CODE_SETTING)
          const context = {
            user,
            query: checked('query', call.query, query),
            body: call.bodyType === 'multipart' ? undefined : checked('body', call.body, request.body),
            params: checked('params', call.params, request.params ?? {}),
            files: call.bodyType === 'multipart' ? await readFiles(request) : [],
            language: typeof request.headers.language === 'string' ? request.headers.language : undefined,
          }
          const handler = handlers[name] as (context: CallContext<CallName>) => unknown
          const data = await handler(context as CallContext<CallName>)
          return { code: SUCCESS_CODE, msg: 'success', data }
        } catch (error) {
          if (error instanceof Refusal) {
            return { code: FAILURE_CODE, msg: error.key, ...(error.detail ? { detail: error.detail } : {}) }
          }
          throw error
        }
      },
    })
  }
}

function requireCode(
  rule: NonNullable<CallDefinition['verificationCode']>,
  query: unknown,
  switches: SettingsStore['current']['VERIFY_CODE_SETTING'],
): void {
  if (lacksVerificationCode(rule, query as Record<string, unknown>, switches))
    throw new Refusal('codeRequired', `query.${rule.field}`)
}

function checked(where: string, schema: TSchema | undefined, value: unknown): unknown {
  if (!schema) return undefined
  if (Value.Check(schema, value)) return value
  const first = Value.Errors(schema, value)[0]
  const field = first?.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where
  throw new Refusal('invalidParameter', `${field} ${first?.message ?? 'is invalid'}`)
}

async function readFiles(request: FastifyRequest): Promise<UploadedFile[]> {
  if (!request.isMultipart()) return []
  const files: UploadedFile[] = []
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue
      if (files.length >= MAX_UPLOAD_FILES) throw new Refusal('tooManyFiles')
      files.push({
        field: part.fieldname,
        filename: part.filename,
        mimetype: part.mimetype,
        bytes: await part.toBuffer(),
      })
    }
  } catch (error) {
    if (error instanceof Refusal) throw error
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new Refusal('fileTooLarge')
    if (code === 'FST_FILES_LIMIT') throw new Refusal('tooManyFiles')
    throw new Refusal('invalidUpload')
  }
  return files
}
