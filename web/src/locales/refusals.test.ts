import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  BUNDLE_LANGUAGES,
  GATEWAY_MESSAGES,
  MoneyRequest,
  RECORD_KINDS,
  UserInfo,
  WelfareTask,
} from '@tradegate/shared'
import { REFUSALS } from '../../../gateway/sandbox/api/refusal'
import { MESSAGE_TITLES, WELFARE_TASK_TITLES } from '../../../gateway/sandbox/content/titles'

// Every message a user can be shown for something the server or the client said, in every language:
// the sandbox's refusals, the gateway's own errors, the client's own messages, every kind of
// balance movement, request state and welfare task. A key missing from a bundle, or left in English,
// would put a raw key or English text on the screen.

const SOURCE = fileURLToPath(new URL('..', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** The error keys the client names itself, e.g. t('errors.networkAnomaly'). */
function clientErrorKeys(): string[] {
  const keys = new Set<string>()
  for (const file of sourceFiles(SOURCE)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/['`]errors\.([A-Za-z_]+)['`]/g))
      keys.add(match[1]!)
  }
  return [...keys]
}

/** The literal values of a TypeBox union of literals, e.g. a status field. */
function literals(schema: unknown): string[] {
  const options = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf ?? []
  return options.map((option) => String(option.const))
}

const SHOWN_KEYS: Record<string, readonly string[]> = {
  'sandbox refusals': REFUSALS.map((key) => `errors.${key}`),
  'gateway errors': GATEWAY_MESSAGES.map((key) => `errors.${key}`),
  'client messages': clientErrorKeys().map((key) => `errors.${key}`),
  'record types': RECORD_KINDS.map((kind) => `money.kinds.${kind}`),
  'welfare tasks': WELFARE_TASK_TITLES.map((title) => `money.welfareTasks.${title}`),
  'welfare task states': literals(WelfareTask.properties.status).map((state) => `welfare.status.${state}`),
  'message titles': MESSAGE_TITLES.map((title) => `message.titles.${title}`),
  'deposit and withdrawal states': literals(MoneyRequest.properties.status).map(
    (state) => `wallet.status.${state}`,
  ),
  'identity states': literals(UserInfo.properties.kycStatus).map((state) => `account.kyc.${state}`),
}

function bundle(code: string): unknown {
  return JSON.parse(readFileSync(new URL(`./${code}.json`, import.meta.url), 'utf8'))
}

function lookup(messages: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages)
}

const english = bundle('en')

describe('every refusal, error and record type has a translated text', () => {
  it('finds what it checks: the collections are not empty', () => {
    for (const [name, keys] of Object.entries(SHOWN_KEYS)) expect(keys.length, name).toBeGreaterThan(0)
    expect(SHOWN_KEYS['client messages']).toContain('errors.networkAnomaly')
    expect(SHOWN_KEYS['sandbox refusals']).toContain('errors.amountBelowTraderMinimum')
  })

  for (const [name, keys] of Object.entries(SHOWN_KEYS)) {
    it.each([...BUNDLE_LANGUAGES])(`${name}: %s has every one, not in English`, (code) => {
      const messages = code === 'en' ? english : bundle(code)
      const missing = keys.filter((key) => {
        const text = lookup(messages, key)
        return typeof text !== 'string' || text.trim() === ''
      })
      expect(missing).toEqual([])
      if (code === 'en') return
      const untranslated = keys.filter((key) => lookup(messages, key) === lookup(english, key))
      expect(untranslated).toEqual([])
    })
  }
})
