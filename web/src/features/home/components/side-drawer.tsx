import { useTranslation } from '../../../lib/i18n'
import { CloseIcon, LogoMark } from '../../../components/icons'
import { MenuLinks } from '../../../components/menu-links'
import { useSettings } from '../../../lib/settings'
import { useSession } from '../../../lib/session'
import { SignOutButton } from '../../../components/sign-out-button'

/** The mobile sidebar menu from the settings, with the account's sign-out. */
export function SideDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const settings = useSettings()
  const { token, userInfo } = useSession()
  return (
    <>
      <div className="drawer-backdrop" onClick={onClose} />
      <nav className="drawer" aria-label={t('layout.menu')}>
        <div className="drawer-head">
          <span className="brand">
            <LogoMark />
            <span>{userInfo?.username ?? t('brand')}</span>
          </span>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </div>
        <MenuLinks items={settings.MENU_SETTING.sidebar} className="sidebar-menu" onNavigate={onClose} />
        {token && (
          <div style={{ marginBlockStart: 16 }}>
            <SignOutButton onSignedOut={onClose} testId="sign-out" />
          </div>
        )}
      </nav>
    </>
  )
}
