import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

// Every route of the product, each screen in its own lazily loaded chunk.

const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/login',
  '/register',
  '/userAgreement',
  '/privacyPolicy',
  '/forget',
  '/setpwd',
  '/langList',
  '/download',
]

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.includes(path)
}

export interface RouteEntry {
  path: string
  screen: LazyExoticComponent<ComponentType>
}

const screen = (load: () => Promise<{ default: ComponentType }>) => lazy(load)

const Home = screen(() => import('../features/home/screens/home'))
const TraderList = screen(() => import('../features/follow/screens/trader-list'))
const Promotion = screen(() => import('../features/invite/screens/promotion'))
const IdentityForm = screen(() => import('../features/account/screens/identity-form'))
const ContactBinding = screen(() => import('../features/account/screens/contact-binding'))

export const ROUTES: readonly RouteEntry[] = [
  // public
  { path: '/', screen: Home },
  { path: '/login', screen: screen(() => import('../features/auth/screens/login')) },
  { path: '/register', screen: screen(() => import('../features/auth/screens/register')) },
  { path: '/userAgreement', screen: screen(() => import('../features/legal/screens/user-agreement')) },
  { path: '/privacyPolicy', screen: screen(() => import('../features/legal/screens/privacy-policy')) },
  { path: '/forget', screen: screen(() => import('../features/auth/screens/forget')) },
  { path: '/setpwd', screen: screen(() => import('../features/auth/screens/set-password')) },
  { path: '/langList', screen: screen(() => import('../features/language/screens/lang-list')) },
  { path: '/download', screen: screen(() => import('../features/download/screens/download')) },
  // signed in: trading, owned by the trading screens
  { path: '/store', screen: screen(() => import('../features/market/screens/store')) },
  { path: '/search', screen: screen(() => import('../features/market/screens/search')) },
  { path: '/addOptional', screen: screen(() => import('../features/watchlist/screens/add-optional')) },
  { path: '/trade', screen: screen(() => import('./trade-screen')) },
  { path: '/tradeChart', screen: screen(() => import('../features/chart/screens/trade-chart')) },
  { path: '/option', screen: screen(() => import('../features/option/screens/option')) },
  // signed in: everything else
  { path: '/invaite', screen: screen(() => import('../features/invite/screens/invitation')) },
  { path: '/invite', screen: Promotion },
  { path: '/extend', screen: Promotion },
  { path: '/help', screen: screen(() => import('../features/help/screens/help')) },
  { path: '/helpDetail/:id', screen: screen(() => import('../features/help/screens/help-detail')) },
  { path: '/finance', screen: screen(() => import('../features/finance/screens/finance')) },
  { path: '/subscribe/:id', screen: screen(() => import('../features/finance/screens/subscribe')) },
  { path: '/finance/holdings', screen: screen(() => import('../features/finance/screens/holdings')) },
  { path: '/floworder', screen: TraderList },
  { path: '/follow', screen: TraderList },
  { path: '/floworder/mine', screen: screen(() => import('../features/follow/screens/my-follows')) },
  { path: '/floworder/apply', screen: screen(() => import('../features/follow/screens/trader-apply')) },
  {
    path: '/floworder/confirm/:id',
    screen: screen(() => import('../features/follow/screens/follow-confirm')),
  },
  { path: '/newDetail', screen: screen(() => import('../features/notice/screens/notice-detail')) },
  { path: '/secrety', screen: screen(() => import('../features/account/screens/security')) },
  { path: '/fund-password', screen: screen(() => import('../features/account/screens/fund-password')) },
  { path: '/userauth', screen: screen(() => import('../features/account/screens/user-auth')) },
  { path: '/primary', screen: IdentityForm },
  { path: '/advanced', screen: IdentityForm },
  { path: '/emailAuthentication', screen: ContactBinding },
  { path: '/phoneAuth', screen: ContactBinding },
  { path: '/changePassword', screen: screen(() => import('../features/account/screens/change-password')) },
  { path: '/message', screen: screen(() => import('../features/message/screens/messages')) },
  {
    path: '/notifications',
    screen: screen(() => import('../features/notifications/screens/notifications')),
  },
  { path: '/message/detail', screen: screen(() => import('../features/message/screens/message-detail')) },
  { path: '/withdrawDeposit', screen: screen(() => import('../features/wallet/screens/withdraw-deposit')) },
  { path: '/wallet', screen: screen(() => import('../features/wallet/screens/wallet')) },
  { path: '/assets', screen: screen(() => import('../features/wallet/screens/assets')) },
  { path: '/recharge', screen: screen(() => import('../features/wallet/screens/recharge')) },
  { path: '/withdraw', screen: screen(() => import('../features/wallet/screens/withdraw')) },
  { path: '/address-book', screen: screen(() => import('../features/wallet/screens/address-book')) },
  { path: '/exchange', screen: screen(() => import('../features/wallet/screens/exchange')) },
  { path: '/flashExchange', screen: screen(() => import('../features/wallet/screens/flash-exchange')) },
  { path: '/transfer', screen: screen(() => import('../features/wallet/screens/transfer')) },
  { path: '/cashflow', screen: screen(() => import('../features/wallet/screens/cashflow')) },
  { path: '/proxy', screen: screen(() => import('../features/proxy/screens/proxy')) },
  { path: '/proxy/records', screen: screen(() => import('../features/proxy/screens/proxy-records')) },
  { path: '/proxy/earnings', screen: screen(() => import('../features/proxy/screens/proxy-earnings')) },
  { path: '/welfare', screen: screen(() => import('../features/welfare/screens/welfare')) },
]
