import { describe, expect, it } from 'vitest'
import {
  BUNDLE_LANGUAGES,
  CALLS,
  OPTION_RULE_KEYS,
  type Article,
  type Notice,
  type Settings,
} from '@tradegate/shared'
import { useTestStack } from '../helpers'

// The sandbox's editorial content through the gateway: notices, rules and help articles in the language
// the request names, English for any other, with the same ids in every language.

const stack = useTestStack({ REDIS_URL: '' })

const NOTICE_QUERIES = [
  { key: 'ROLL_NOTICE', modelKey: 'HOME' },
  { key: 'POP_NOTICE', modelKey: 'HOME' },
  { key: 'WITHDRAW_NOTICE', modelKey: 'WITHDRAW' },
]
const RULE_KEYS = Object.values(OPTION_RULE_KEYS)

async function read<T>(url: string, language: string | undefined): Promise<T> {
  const response = await stack.gateway.app.inject({
    url,
    headers: language === undefined ? {} : { language },
  })
  expect(response.statusCode, url).toBe(200)
  const envelope = response.json<{ code: number; data: T }>()
  expect(envelope.code, url).toBe(200)
  return envelope.data
}

const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`
const notices = (query: Record<string, string>, language?: string) =>
  read<Notice[]>(withQuery(CALLS.noticeList.path, query), language)
const rules = (key: string, language?: string) =>
  read<Article[]>(withQuery(CALLS.optionRules.path, { key }), language)
const helpList = (language?: string) => read<Article[]>(CALLS.helpList.path, language)
const helpDetail = (id: number, language?: string) =>
  read<Article>(withQuery(CALLS.helpDetail.path, { id: String(id) }), language)

/** Everything the four calls answer in one language, in a fixed order. */
async function allContent(language: string | undefined) {
  const help = await helpList(language)
  return {
    notices: (await Promise.all(NOTICE_QUERIES.map((query) => notices(query, language)))).flat(),
    rules: (await Promise.all(RULE_KEYS.map((key) => rules(key, language)))).flat(),
    help,
    details: await Promise.all(help.map((article) => helpDetail(article.id, language))),
  }
}

const texts = (rows: ReadonlyArray<{ title: string; content: string }>) =>
  rows.flatMap((row) => [row.title, row.content])

describe('content in the request language', () => {
  it('answers notices, rules and help in Japanese and Arabic', async () => {
    const [roll] = await notices({ key: 'ROLL_NOTICE', modelKey: 'HOME' }, 'ja')
    expect(roll).toMatchObject({ id: 1, title: 'サンドボックス市場オープン' })
    const [welcome] = await notices({ key: 'POP_NOTICE', modelKey: 'HOME' }, 'ar')
    expect(welcome).toMatchObject({ id: 3, title: 'مكافأة ترحيبية' })
    expect((await notices({ key: 'WITHDRAW_NOTICE' }, 'ja'))[0]!.title).toBe('出金受付時間')
    expect((await rules(OPTION_RULE_KEYS.secondContract, 'ja'))[0]!.title).toBe('秒契約の決済方法')
    expect((await rules(OPTION_RULE_KEYS.contract, 'ar'))[1]!.title).toBe('الرسوم')
    expect((await helpList('ja'))[0]!.title).toBe('入金するには？')
    expect((await helpDetail(2, 'ar')).title).toBe('كيف أسحب؟')
    // a regional tag reads as its language
    expect((await helpDetail(2, 'de-DE')).title).toBe('Wie zahle ich aus?')
  })

  it('answers English for a language it has no text in, or none named', async () => {
    const english = await allContent('en')
    expect(english.notices[0]!.title).toBe('Sandbox market open')
    expect(english.help[0]!.title).toBe('How do I deposit?')
    expect(await allContent('xx')).toEqual(english)
    expect(await allContent('constructor')).toEqual(english)
    expect(await allContent(undefined)).toEqual(english)
  })

  it('has the same ids and placement in every language, each text its own and not empty', async () => {
    const english = await allContent('en')
    const placement = (content: typeof english) => ({
      notices: content.notices.map(({ id, key, modelKey, createdAt }) => ({ id, key, modelKey, createdAt })),
      rules: content.rules.map((rule) => rule.id),
      help: content.help.map((article) => article.id),
      details: content.details.map((article) => article.id),
    })
    expect(english.notices.map((notice) => notice.id)).toEqual([1, 2, 3, 4])
    expect(english.help.map((article) => article.id)).toEqual([1, 2, 3, 4, 5])
    for (const language of BUNDLE_LANGUAGES) {
      const content = await allContent(language)
      expect(placement(content), language).toEqual(placement(english))
      expect(content.details, language).toEqual(content.help)
      for (const text of [...texts(content.notices), ...texts(content.rules), ...texts(content.help)]) {
        expect(text.trim(), language).not.toBe('')
      }
      if (language !== 'en') {
        // translated, not English left in place (the contract rules' and notices' titles included)
        const englishTexts = new Set([
          ...texts(english.notices),
          ...texts(english.rules),
          ...texts(english.help),
        ])
        const shared = texts([...content.notices, ...content.rules, ...content.help]).filter((text) =>
          englishTexts.has(text),
        )
        expect(shared, language).toEqual([])
      }
    }
  })

  it('states the withdrawal window and welcome credit the sandbox applies, in every language', async () => {
    const settings = await read<Settings>(CALLS.getAllSetting.path, 'en')
    const { startTime, endTime } = settings.WITHDRAWAL_SETTING
    const zone = `UTC+${settings.DEFAULT_TIME_ZONE.offset}`
    const credit = `${settings.REGISTRATION_CREDIT.amount} ${settings.REGISTRATION_CREDIT.coin.toUpperCase()}`
    for (const language of BUNDLE_LANGUAGES) {
      const [hours] = await notices({ key: 'WITHDRAW_NOTICE', modelKey: 'WITHDRAW' }, language)
      expect(hours!.content, language).toContain(startTime.slice(0, 5))
      expect(hours!.content, language).toContain(endTime.slice(0, 5))
      expect(hours!.content, language).toContain(zone)
      const [welcome] = await notices({ key: 'POP_NOTICE', modelKey: 'HOME' }, language)
      expect(welcome!.content, language).toContain(credit)
    }
  })
})
