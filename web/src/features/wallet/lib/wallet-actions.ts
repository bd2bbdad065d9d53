// The fund tab's money actions, in the order their tiles show; each label is a message key.

export const WALLET_ACTIONS = [
  { href: '/recharge', label: 'menu.recharge', primary: true },
  { href: '/withdraw', label: 'wallet.withdraw' },
  { href: '/transfer', label: 'money.transfer.title' },
  { href: '/exchange', label: 'wallet.exchange' },
  { href: '/cashflow', label: 'wallet.cashflow' },
  { href: '/withdrawDeposit', label: 'wallet.history' },
  { href: '/assets', label: 'menu.assets' },
  { href: '/secrety', label: 'account.security' },
] as const
