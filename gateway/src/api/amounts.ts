import {
  checkAmount,
  coinPrecisions,
  precisionOf,
  type AmountField,
  type AmountScale,
  type CoinList,
  type CoinPrecisions,
  type ProductLine,
} from '@tradegate/shared'
import { GatewayError } from '../lib/errors'
import { withDeadline } from '../lib/deadline'

// The money rule at the gateway: every amount field of a call judged by `checkAmount` on the text the
// client wrote, with the places its scale names (call table): a coin's or pair's from the cached coin
// list, a product's coin from the cached product lists, USDT's, or a fixed count.

/**
 * Decimal places of an amount by its scale and the request's other values. A coin the lists do not
 * name has the places the client gives it too (`precisionOf`); a pair the coin list does not name,
 * `undefined`: the 18-place cap, since a pair's places cannot be guessed (the upstream refuses the pair).
 */
export interface Precisions {
  of(scale: AmountScale, values: Readonly<Record<string, unknown>>): number | undefined
}

interface PairPlaces {
  price: number
  quantity: number
}

type PairList = Array<Record<string, unknown>>

/** Price and quantity places of each pair of a list, by lower-case symbol. */
function pairPlaces(list: PairList, price: string, quantity: string): Map<string, PairPlaces> {
  const pairs = new Map<string, PairPlaces>()
  for (const item of list) {
    if (typeof item.symbol === 'string' && Number.isInteger(item[price]) && Number.isInteger(item[quantity]))
      pairs.set(item.symbol.toLowerCase(), {
        price: item[price] as number,
        quantity: item[quantity] as number,
      })
  }
  return pairs
}

/** The coin of each product of a products answer (`{code:200,data:[{id,coin}]}`), by id; empty when it has none. */
export function productCoinsOf(answer: unknown): Map<string, string> {
  const coins = new Map<string, string>()
  const { code, data } = (answer ?? {}) as { code?: unknown; data?: unknown }
  if (code !== 200 || !Array.isArray(data)) return coins
  for (const product of data as Array<Record<string, unknown>>) {
    if (Number.isInteger(product?.id) && typeof product.coin === 'string')
      coins.set(String(product.id), product.coin.toLowerCase())
  }
  return coins
}

export type ProductCoins = Partial<Record<ProductLine, ReadonlyMap<string, string>>>

const NO_PAIRS = new Map<string, PairPlaces>()

/**
 * Places from a getCoinList answer and the product lists' coins. Without a readable coin list every
 * coin has the shared default places (never the 18-place cap) and every pair the cap.
 */
export function precisionsOf(coinListAnswer: unknown, products: ProductCoins = {}): Precisions {
  const lists = listsOf(coinListAnswer)
  // the client's rule for a coin's places, so both sides refuse the same digits
  const coins: CoinPrecisions = lists ? coinPrecisions(lists) : new Map()
  const spot = lists
    ? pairPlaces(lists.currencyList as unknown as PairList, 'basePrecision', 'coinPrecision')
    : NO_PAIRS
  const contract = lists
    ? pairPlaces(lists.contractList as unknown as PairList, 'baseScale', 'coinScale')
    : NO_PAIRS
  return {
    of(scale, values) {
      if ('places' in scale) return scale.places
      if ('coin' in scale) return precisionOf(coins, scale.coin)
      const named = values[scale.field]
      // a missing or mistyped field is the schema's to refuse; the amount gets the finest places of any coin
      if (typeof named !== 'string' && typeof named !== 'number') return undefined
      const key = String(named).toLowerCase()
      if ('product' in scale) {
        // a product the list does not name is refused upstream; its amount gets the default places
        return precisionOf(coins, products[scale.product]?.get(key) ?? '')
      }
      switch (scale.kind) {
        case 'coin':
          // the shared rule, so a digit the client refuses for an unlisted coin is refused here too
          return precisionOf(coins, key)
        case 'spotQuantity':
          return spot.get(key)?.quantity
        case 'spotPrice':
          return spot.get(key)?.price
        case 'contractPrice':
          return contract.get(key)?.price
      }
    },
  }
}

/** The pair lists of a getCoinList answer, or null when it has none. */
function listsOf(answer: unknown): Pick<CoinList, 'currencyList' | 'contractList'> | null {
  const data = (answer as { code?: unknown; data?: Partial<CoinList> } | null)?.data
  if ((answer as { code?: unknown } | null)?.code !== 200 || typeof data !== 'object' || data === null)
    return null
  const lists = { currencyList: data.currencyList ?? [], contractList: data.contractList ?? [] }
  if (!Array.isArray(lists.currencyList) || !Array.isArray(lists.contractList)) return null
  return coinPrecisions(lists).size === 0 ? null : lists
}

/** Precisions from a getCoinList answer, or null when it has none. */
export function precisionsOfCoinList(answer: unknown, products: ProductCoins = {}): Precisions | null {
  return listsOf(answer) ? precisionsOf(answer, products) : null
}

/** While no coin list has been read: coins by the shared default places, fixed scales as they are. */
const WITHOUT_LISTS = precisionsOf(null)

const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * The text of a top-level member's value as written, when that value is a JSON number: the float it
 * parses to has lost the digits the money rule judges. Scans only as far as the member.
 */
export function numberTextOf(json: string, key: string): string | null {
  let depth = 0
  // a string at the top level is a key when it follows `{` or `,`; otherwise it is a value
  let keyNext = false
  let index = 0
  while (index < json.length) {
    const char = json[index]!
    if (char === '"') {
      const end = stringEnd(json, index)
      if (depth === 1 && keyNext && JSON.parse(json.slice(index, end)) === key) {
        const value = json.slice(end).match(/^\s*:\s*([-+0-9.eE]+)/)
        return value ? value[1]! : null
      }
      keyNext = false
      index = end
      continue
    }
    if (char === '{' || char === '[') {
      depth++
      keyNext = depth === 1 && char === '{'
    } else if (char === '}' || char === ']') depth--
    else if (char === ',' && depth === 1) keyNext = true
    index++
  }
  return null
}

/** Index just past the closing quote of the JSON string opening at `start`. */
function stringEnd(json: string, start: number): number {
  let index = start + 1
  while (index < json.length) {
    const code = json.charCodeAt(index)
    if (code === BACKSLASH) index += 2
    else if (code === QUOTE) return index + 1
    else index++
  }
  return index
}

export interface AmountInput {
  query: Record<string, unknown>
  body: unknown
  /** the JSON body as received, for the written text of number values; null for a form body */
  rawJson: string | null
}

/**
 * Throws 400 `invalidAmount` naming the first amount field the money rule refuses. A field of another
 * type (an object, a boolean) is left to the schema, which refuses it as `badRequest`.
 */
export function checkAmounts(
  fields: readonly AmountField[],
  input: AmountInput,
  precisions: Precisions | null,
): void {
  for (const { part, key, rule } of fields) {
    const values = (part === 'query' ? input.query : input.body) as Record<string, unknown> | undefined
    if (typeof values !== 'object' || values === null || !Object.hasOwn(values, key)) continue
    const value = values[key]
    let text: string
    if (typeof value === 'string') text = value
    else if (typeof value === 'number' && part === 'body' && input.rawJson !== null)
      text = numberTextOf(input.rawJson, key) ?? String(value)
    else continue
    const maxDecimals = (precisions ?? WITHOUT_LISTS).of(rule.scale, values)
    if (checkAmount(text, { maxDecimals, allowZero: rule.allowZero }) !== null)
      throw new GatewayError(400, 'invalidAmount', `${part}.${key}`)
  }
}

export interface PrecisionSourceOptions {
  /** the getCoinList answer's body, parsed; throws when there is none */
  load(): Promise<unknown>
  /** a product list's answer, parsed, for the coin each product is counted in; a failure leaves it out */
  loadProducts?(line: ProductLine): Promise<unknown>
  /** a list older than this is read again on the next request that needs it */
  refreshMs?: number
  /** after a failed read, the next try waits this long */
  retryMs?: number
  /** a read slower than this counts as failed, so a hung upstream holds no request long */
  timeoutMs?: number
}

/**
 * The coin list's precisions, read through the gateway's own cached call. The first request needing
 * them waits for the first read; later ones use the last list while a refresh runs, and while no list
 * can be read every coin has the shared default places.
 */
export class PrecisionSource {
  private precisions: Precisions | null = null
  private readAt = 0
  private failedAt = 0
  private reading: Promise<void> | null = null

  constructor(private readonly options: PrecisionSourceOptions) {}

  async current(): Promise<Precisions | null> {
    const now = Date.now()
    const due = this.precisions
      ? now - this.readAt >= (this.options.refreshMs ?? 60_000)
      : now - this.failedAt >= (this.options.retryMs ?? 15_000)
    if (due && !this.reading) this.reading = this.read()
    if (!this.precisions && this.failedAt === 0 && this.reading) await this.reading
    return this.precisions
  }

  /** Each product line's coins; a line that cannot be read is left out, its amounts by the default places. */
  private async readProducts(): Promise<ProductCoins> {
    const load = this.options.loadProducts
    if (!load) return {}
    const lines: ProductLine[] = ['finance', 'proxy']
    const answers = await Promise.all(lines.map((line) => load(line).catch(() => null)))
    return Object.fromEntries(lines.map((line, index) => [line, productCoinsOf(answers[index])]))
  }

  private async read(): Promise<void> {
    try {
      const [coinList, products] = await withDeadline(
        Promise.all([this.options.load(), this.readProducts()]),
        this.options.timeoutMs ?? 3000,
      )
      const precisions = precisionsOfCoinList(coinList, products)
      if (!precisions) throw new Error('coin list without precisions')
      this.precisions = precisions
      this.readAt = Date.now()
      this.failedAt = 0
    } catch {
      this.failedAt = Date.now()
    } finally {
      this.reading = null
    }
  }
}
