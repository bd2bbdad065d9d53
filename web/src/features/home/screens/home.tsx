import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { FeedStatusBadge } from '../../../components/feed-status'
import { Link } from 'wouter'
import {
  BellIcon,
  GlobeIcon,
  HeadsetIcon,
  LogoMark,
  MenuIcon,
  MoonIcon,
  SunIcon,
} from '../../../components/icons'
import { MenuLinks } from '../../../components/menu-links'
import { useCoinList, useSettings } from '../../../lib/settings'
import { setTheme, useTheme } from '../../../lib/theme'
import { ROLL_NOTICE, useNotices } from '../../../lib/api/get-notices'
import { HomeCoins } from '../components/home-coins'
import { HomeHero } from '../components/home-hero'
import { MarketList } from '../components/market-list'
import { SideDrawer } from '../components/side-drawer'

const MARKET_ROWS = 8

/**
 * Where "Customer service" leads: the configured chat or help desk when it is a web address, else a
 * mail to the configured address; never the in-app message list, which has nobody to write to.
 */
function contactLink(service: { url: string; email: string }): string {
  if (/^https?:\/\//.test(service.url)) return service.url
  return service.email ? `mailto:${service.email}` : service.url
}

export default function HomeScreen() {
  const { t } = useTranslation()
  const settings = useSettings()
  const coinList = useCoinList()
  const theme = useTheme()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const notices = useNotices(ROLL_NOTICE, { quiet: true })
  const firstNotice = notices.data?.[0]
  const service = settings.CUSTOMER_SERVICE
  const contact = contactLink(service)

  return (
    <div className="screen home">
      <h1 className="visually-hidden">{t('brand')}</h1>
      <header className="home-header">
        <div className="home-actions">
          <button
            type="button"
            className="icon-button mobile-only"
            onClick={() => setDrawerOpen(true)}
            aria-label={t('layout.menu')}
          >
            <MenuIcon size={22} />
          </button>
          <Link href="/" className="brand mobile-only">
            <LogoMark size={26} />
            <span>{t('brand')}</span>
          </Link>
        </div>
        <div className="home-actions">
          <button
            type="button"
            className="icon-button"
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={t('layout.toggleTheme')}
          >
            {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
          </button>
          <Link
            href="/langList"
            className="icon-button"
            aria-label={t('language.title')}
            data-testid="open-languages"
          >
            <GlobeIcon />
          </Link>
        </div>
      </header>

      <div className="screen-body">
        <div className="home-grid">
          <HomeHero />
          <div className="form">
            {firstNotice ? (
              <div className="notice-bar">
                <BellIcon size={18} />
                <Link href={`/newDetail?id=${firstNotice.id}&key=${firstNotice.key}`}>
                  {firstNotice.title}
                </Link>
              </div>
            ) : (
              // Until the rolling notices answer, an empty bar of the same single-line height holds
              // their place: the bar appearing pushed the coin cards, the menu and the market list
              // down by its height after they were drawn (the home page's layout shift, 0.057).
              notices.data === undefined &&
              !notices.error && (
                <div className="notice-bar" aria-hidden="true" data-testid="notice-bar-pending">
                  <BellIcon size={18} />
                  <span>{'\u00a0'}</span>
                </div>
              )
            )}
            <HomeCoins coins={settings.HOME_COINS} />
          </div>
        </div>

        <MenuLinks items={settings.MENU_SETTING.middle} className="menu-grid" />

        {coinList && coinList.coinList.length > 0 && (
          <section>
            <div className="section-head">
              <h2 className="section-title">{t('home.markets')}</h2>
              <FeedStatusBadge />
            </div>
            <MarketList entries={coinList.coinList.slice(0, MARKET_ROWS)} />
          </section>
        )}

        <section>
          <h2 className="section-title">{t('home.explore')}</h2>
          <MenuLinks items={settings.MENU_SETTING.bottom} className="menu-grid" />
        </section>
      </div>

      <a
        href={contact}
        className="service-fab"
        aria-label={t('home.customerService')}
        title={service.email}
        data-testid="customer-service"
        {...(/^https?:/.test(contact) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      >
        <HeadsetIcon size={22} />
      </a>
      {drawerOpen && <SideDrawer onClose={() => setDrawerOpen(false)} />}
    </div>
  )
}
