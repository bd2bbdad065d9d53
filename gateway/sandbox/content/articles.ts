import { OPTION_RULE_KEYS, type Article, type Notice } from '@tradegate/shared'
import { HELP_TEXTS, type HelpArticleName } from './help-texts'
import { inLanguage, type InEveryLanguage, type Text } from './languages'
import { NOTICE_TEXTS, type NoticeName } from './notice-texts'
import { optionRulesIn } from './option-rules'
import { TRADING_RULE_TEXTS, type TradingRuleName } from './trading-rule-texts'

// Fixed editorial content: notices by placement key, trading rules, help articles. Each is answered in the
// language the request names, English for any other; ids and placement are the same in every language.

const PUBLISHED_AT = Date.UTC(2025, 0, 15)

interface Placed<Name> {
  id: number
  name: Name
}

const NOTICES: ReadonlyArray<Placed<NoticeName> & Omit<Notice, 'id' | 'title' | 'content'>> = [
  { id: 1, name: 'sandboxOpen', key: 'ROLL_NOTICE', modelKey: 'HOME', createdAt: PUBLISHED_AT },
  { id: 2, name: 'goldListing', key: 'ROLL_NOTICE', modelKey: 'HOME', createdAt: PUBLISHED_AT },
  { id: 3, name: 'welcomeBonus', key: 'POP_NOTICE', modelKey: 'HOME', createdAt: PUBLISHED_AT },
  { id: 4, name: 'withdrawalHours', key: 'WITHDRAW_NOTICE', modelKey: 'WITHDRAW', createdAt: PUBLISHED_AT },
]

/** The second-contract and contract rules by rule key; the option rules' ids follow these. */
const TRADING_RULES: Readonly<Record<string, ReadonlyArray<Placed<TradingRuleName>>>> = {
  [OPTION_RULE_KEYS.secondContract]: [
    { id: 1, name: 'secondSettlement' },
    { id: 2, name: 'secondPayouts' },
  ],
  [OPTION_RULE_KEYS.contract]: [
    { id: 3, name: 'contractMargin' },
    { id: 4, name: 'contractFees' },
  ],
}

const HELP_ARTICLES: ReadonlyArray<Placed<HelpArticleName>> = [
  { id: 1, name: 'deposit' },
  { id: 2, name: 'withdraw' },
  { id: 3, name: 'fundPassword' },
  { id: 4, name: 'identity' },
  { id: 5, name: 'copyTrading' },
]

/** Each row with its title and content in the request's language, in place of its name. */
function withTexts<Name extends string, Row extends { name: Name }>(
  rows: readonly Row[],
  texts: InEveryLanguage<Readonly<Record<Name, Text>>>,
  language: string | undefined,
): Array<Omit<Row, 'name'> & { title: string; content: string }> {
  const inThisLanguage = inLanguage(texts, language)
  return rows.map(({ name, ...row }) => {
    const [title, content] = inThisLanguage[name]
    return { ...row, title, content }
  })
}

/** Every notice, in the request's language. */
export function noticesIn(language: string | undefined): Notice[] {
  return withTexts(NOTICES, NOTICE_TEXTS, language)
}

/** The rules filed under a key of OPTION_RULE_KEYS, in the request's language; none for another key. */
export function rulesIn(key: string, language: string | undefined): Article[] {
  if (key === OPTION_RULE_KEYS.option) return optionRulesIn(language)
  const placed = Object.hasOwn(TRADING_RULES, key) ? TRADING_RULES[key]! : []
  return withTexts(placed, TRADING_RULE_TEXTS, language)
}

/** The help articles, in the request's language. */
export function helpArticlesIn(language: string | undefined): Article[] {
  return withTexts(HELP_ARTICLES, HELP_TEXTS, language)
}
