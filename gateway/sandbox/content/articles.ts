import type { Article, Notice } from '@tradegate/shared'

// Fixed editorial content: notices by placement key, option rules, help articles.

const PUBLISHED_AT = Date.UTC(2025, 0, 15)

export const NOTICES: readonly Notice[] = [
  {
    id: 1,
    key: 'ROLL_NOTICE',
    modelKey: 'HOME',
    title: 'Sandbox market open',
    content: 'Prices here are simulated. Nothing you do in the sandbox touches real money.',
    createdAt: PUBLISHED_AT,
  },
  {
    id: 2,
    key: 'ROLL_NOTICE',
    modelKey: 'HOME',
    title: 'New listing: Gold (XAU)',
    content: 'Gold is now tradable as a contract and as a second contract.',
    createdAt: PUBLISHED_AT,
  },
  {
    id: 3,
    key: 'POP_NOTICE',
    modelKey: 'HOME',
    title: 'Welcome bonus',
    content: 'Every new account receives 80 USDT to try every product.',
    createdAt: PUBLISHED_AT,
  },
  {
    id: 4,
    key: 'WITHDRAW_NOTICE',
    modelKey: 'WITHDRAW',
    title: 'Withdrawal hours',
    content: 'Withdrawals are accepted from 11:00 to 23:00 (UTC+8) and reviewed the same day.',
    createdAt: PUBLISHED_AT,
  },
]

export const OPTION_RULES: Readonly<Record<string, readonly Article[]>> = {
  SECOND_RULE: [
    {
      id: 1,
      title: 'How second contracts settle',
      content:
        'Your stake is held until the period ends. If the price then is above the opening price an up order wins; below, a down order wins; unchanged, the stake is returned.',
    },
    {
      id: 2,
      title: 'Payouts',
      content: 'A win pays the period rate on top of the stake. A loss forfeits the stake.',
    },
  ],
  CONTRACT_RULE: [
    {
      id: 3,
      title: 'Margin and leverage',
      content:
        'Margin is position value divided by leverage. A position is liquidated when its loss reaches its margin.',
    },
    { id: 4, title: 'Fees', content: 'Opening and closing a position each cost 0.1 % of its value.' },
  ],
  OPTION_RULE: [
    {
      id: 5,
      title: 'What you buy',
      content:
        'Each option is a European call or put on the price of its coin in USDT, bought from the exchange. A call pays when the price at expiry is above the strike, a put when it is below. Options are only bought, never sold short, so you can never lose more than you paid.',
    },
    {
      id: 6,
      title: 'Premium and fee',
      content:
        'The premium per unit is the Black-Scholes value at the current price, with the volatility and rate shown beside the chain and the time left to expiry. You pay the premium times the quantity plus the coin\'s fee: a percent of the premium, or a fixed USDT amount per order. Your order names the most per unit you accept; if the premium is above it when the order arrives, the order is refused and nothing is charged.',
    },
    {
      id: 7,
      title: 'Expiry and settlement',
      content:
        'Expiries roll: the next quarter hour, the next hour and the next midnight UTC. At expiry every position settles by itself against the market price: a call pays the quantity times the price above the strike, a put the quantity times the price below it, in USDT to your main account. An option that ends out of the money expires worthless.',
    },
    {
      id: 8,
      title: 'Quantities and balance',
      content:
        'Quantities are whole multiples of the coin\'s lot size, up to the maximum shown on the order ticket. The USDT in your main account must cover the premium and the fee.',
    },
  ],
}

export const HELP_ARTICLES: readonly Article[] = [
  {
    id: 1,
    title: 'How do I deposit?',
    content: 'Open Recharge, choose a coin and chain, and send funds to the address shown.',
  },
  {
    id: 2,
    title: 'How do I withdraw?',
    content: 'Set a fund password, save a withdrawal address, and submit during withdrawal hours.',
  },
  {
    id: 3,
    title: 'What is a fund password?',
    content: 'A second password that confirms withdrawals and, where enabled, orders.',
  },
  {
    id: 4,
    title: 'Why verify my identity?',
    content: 'Verification raises your limits and unlocks the welfare rewards.',
  },
  {
    id: 5,
    title: 'How does copy trading work?',
    content: 'Your stake follows a leader; on stop the leader keeps a share of any profit.',
  },
]
