import { useTranslation } from '../lib/i18n'
import { Link, useLocation } from 'wouter'
import { useSettings } from '../lib/settings'
import { useSession } from '../lib/session'
import { SignOutButton } from './sign-out-button'
import { LogoMark } from './icons'
import { MenuLinks } from './menu-links'

/** The desktop navigation from the desktopSidebar menu; hidden below 1024 px by the stylesheet. */
export function DesktopSidebar() {
  const { t } = useTranslation()
  const settings = useSettings()
  const [location, navigate] = useLocation()
  const { token } = useSession()
  return (
    <aside className="desktop-sidebar" aria-label={t('layout.navigation')}>
      <Link href="/" className="brand">
        <LogoMark />
        <span>{t('brand')}</span>
      </Link>
      <MenuLinks
        items={settings.MENU_SETTING.desktopSidebar}
        className="sidebar-menu"
        activePath={location}
      />
      <div className="sidebar-footer">
        {token ? (
          <SignOutButton onSignedOut={() => navigate('/')} testId="sidebar-sign-out" />
        ) : (
          <Link href="/login" className="button button-primary button-block">
            {t('auth.login')}
          </Link>
        )}
      </div>
    </aside>
  )
}
