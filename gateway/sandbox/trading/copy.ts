import type { Decimal } from 'decimal.js'
import { toDecimal, type Follow, type Trader } from '@tradegate/shared'
import type { User } from '../accounts/users'
import { refuse } from '../api/refusal'
import { QUOTE_COIN } from '../markets/catalogue'
import { AMOUNT_PLACES, ZERO, text, truncate } from '../money/amounts'
import { holdLeg } from '../money/ledger'
import { deriveSeed, seededRandom } from '@tradegate/shared'
import { idSequence, type SandboxState } from '../state'

// Copy trading: a follower's stake tracks the leader's standing position (a symbol and a direction)
// from the price at follow time. On stop the leader takes shareRate of a profit: the house for the
// built-in leaders, the leading user for leaders who applied.

const FOLLOW_MIN_AMOUNT = '100'
const BUILT_IN_LEADERS: ReadonlyArray<[nickname: string, symbol: string, direction: 1 | -1]> = [
  ['AlphaWhale', 'btcusdt', 1],
  ['EtherSage', 'ethusdt', 1],
  ['ShortKing', 'solusdt', -1],
  ['GoldDesk', 'xauusdt', 1],
  ['TronTrader', 'trxusdt', 1],
  ['BearHunter', 'dogeusdt', -1],
  ['SteadyHands', 'bnbusdt', 1],
  ['LinkMaster', 'linkusdt', 1],
]

interface Leader extends Trader {
  symbol: string
  direction: 1 | -1
  ownerId: string | null
}

interface UserFollow extends Follow {
  userId: string
  entryPrice: string
}

export class CopyDesk {
  private readonly leaders: Leader[] = []
  private readonly follows: UserFollow[] = []
  private readonly nextFollowId = idSequence()

  constructor(
    private readonly state: SandboxState,
    seed: number,
  ) {
    const random = seededRandom(deriveSeed(seed, 'leaders'))
    const rules = state.settings.current.TRADER_SETTING
    BUILT_IN_LEADERS.forEach(([nickname, symbol, direction], index) => {
      this.leaders.push({
        id: index + 1,
        nickname,
        winRate: (45 + random.next() * 40).toFixed(2),
        totalProfit: (random.next() * 250_000).toFixed(2),
        followers: Math.floor(random.next() * 300),
        maxFollowers: rules.maxUserCount,
        minAmount: FOLLOW_MIN_AMOUNT,
        shareRate: rules.shareRate,
        symbol,
        direction,
        ownerId: null,
      })
    })
  }

  traders(): Trader[] {
    return this.leaders.map(publicTrader)
  }

  follow(user: User, traderId: number, amount: Decimal): Follow {
    const leader = this.leaders.find((row) => row.id === traderId) ?? refuse('unknownTrader')
    if (leader.ownerId === user.id) refuse('cannotFollowYourself')
    if (amount.lessThan(leader.minAmount)) refuse('amountBelowMinimum')
    if (leader.followers >= leader.maxFollowers) refuse('traderFull')
    if (
      this.follows.some(
        (row) => row.userId === user.id && row.traderId === traderId && row.status === 'following',
      )
    ) {
      refuse('alreadyFollowing')
    }
    const follow: UserFollow = {
      id: this.nextFollowId(),
      traderId,
      nickname: leader.nickname,
      amount: text(amount),
      profit: '0',
      status: 'following',
      createdAt: this.state.clock(),
      userId: user.id,
      entryPrice: text(this.state.market.price(leader.symbol)),
    }
    this.state.ledger.apply({
      kind: 'follow',
      note: `following ${leader.nickname} (#${follow.id})`,
      legs: [holdLeg(user.id, 'platform', QUOTE_COIN, amount)],
    })
    leader.followers++
    this.follows.unshift(follow)
    return this.view(follow)
  }

  stop(userId: string, id: number): Follow {
    const follow =
      this.follows.find((row) => row.id === id && row.userId === userId) ?? refuse('unknownFollow')
    if (follow.status !== 'following') refuse('followAlreadyStopped')
    const leader = this.leaders.find((row) => row.id === follow.traderId)!
    const amount = toDecimal(follow.amount)
    const profit = this.profit(follow)
    const share = profit.greaterThan(0) ? truncate(profit.times(leader.shareRate), AMOUNT_PLACES) : ZERO
    const payout = amount.plus(profit).minus(share)
    this.state.ledger.apply({
      kind: 'follow',
      note: `stopped following ${leader.nickname} (#${follow.id})`,
      legs: [
        { userId, account: 'platform', coin: QUOTE_COIN, frozen: amount.negated(), available: payout },
        { pool: 'house', coin: QUOTE_COIN, amount: amount.minus(payout) },
      ],
    })
    if (leader.ownerId && share.greaterThan(0)) {
      this.state.ledger.apply({
        kind: 'rebate',
        note: `profit share from follower #${follow.id}`,
        legs: [
          { pool: 'house', coin: QUOTE_COIN, amount: share.negated() },
          { userId: leader.ownerId, account: 'platform', coin: QUOTE_COIN, available: share },
        ],
      })
    }
    follow.status = 'stopped'
    follow.profit = text(profit.minus(share))
    leader.followers = Math.max(0, leader.followers - 1)
    this.state.profits.add(userId, profit.minus(share))
    return this.view(follow)
  }

  mine(userId: string): Follow[] {
    return this.follows.filter((row) => row.userId === userId).map((row) => this.view(row))
  }

  /** A user becomes a leader by locking the trader minimum; followers then track btc long. */
  apply(user: User, nickname: string, amount: Decimal): Trader {
    const rules = this.state.settings.current.TRADER_SETTING
    if (this.leaders.some((row) => row.ownerId === user.id)) refuse('alreadyATrader')
    if (this.leaders.some((row) => row.nickname.toLowerCase() === nickname.toLowerCase()))
      refuse('nicknameTaken')
    if (amount.lessThan(rules.traderMinAmount)) refuse('amountBelowTraderMinimum')
    this.state.ledger.apply({
      kind: 'trader',
      note: `trader deposit for ${nickname}`,
      legs: [holdLeg(user.id, 'platform', QUOTE_COIN, amount)],
    })
    const leader: Leader = {
      id: this.leaders.length + 1,
      nickname,
      winRate: '0',
      totalProfit: '0',
      followers: 0,
      maxFollowers: rules.defaultUserCount > 0 ? rules.defaultUserCount : rules.maxUserCount,
      minAmount: FOLLOW_MIN_AMOUNT,
      shareRate: rules.shareRate,
      symbol: 'btcusdt',
      direction: 1,
      ownerId: user.id,
    }
    this.leaders.push(leader)
    return publicTrader(leader)
  }

  private profit(follow: UserFollow): Decimal {
    const leader = this.leaders.find((row) => row.id === follow.traderId)!
    const price = this.state.market.price(leader.symbol)
    const amount = toDecimal(follow.amount)
    const move = price.minus(follow.entryPrice).times(leader.direction).dividedBy(follow.entryPrice)
    const profit = truncate(amount.times(move), AMOUNT_PLACES)
    return profit.lessThan(amount.negated()) ? amount.negated() : profit
  }

  private view(follow: UserFollow): Follow {
    const { userId: _owner, entryPrice: _entry, ...row } = follow
    return follow.status === 'following' ? { ...row, profit: text(this.profit(follow)) } : row
  }
}

function publicTrader({
  symbol: _symbol,
  direction: _direction,
  ownerId: _owner,
  ...trader
}: Leader): Trader {
  return trader
}
