import type { Article, Notice } from '@tradegate/shared'

// Fixed editorial content: notices by placement key, trading rules, help articles. The option rules,
// which the call serves in every language, are in option-rules.ts.

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
