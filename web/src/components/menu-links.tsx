import { useTranslation } from '../lib/i18n'
import { Link } from 'wouter'
import type { MenuItem } from '@tradegate/shared'
import { openMenuItems } from '../lib/settings'

/** A settings menu entry's label: the translated key when the bundles know it, else the server's name. */
function useMenuLabel(): (item: MenuItem) => string {
  const { t, i18n } = useTranslation()
  return (item) => (i18n.exists(`menu.${item.key}`) ? t(`menu.${item.key}`) : item.name)
}

export interface MenuLinksProps {
  items: readonly MenuItem[]
  className: string
  activePath?: string
  onNavigate?: () => void
}

/** Open entries by sort; inner links are routes of this app, outer links open a new window. */
export function MenuLinks({ items, className, activePath, onNavigate }: MenuLinksProps) {
  const label = useMenuLabel()
  return (
    <ul className={className}>
      {openMenuItems(items).map((item) => {
        const content = (
          <>
            {item.icon && (
              // lazy: the desktop sidebar is hidden on a phone, and a hidden lazy image is never fetched
              <img src={item.icon} alt="" width={24} height={24} className="menu-icon" loading="lazy" />
            )}
            <span>{label(item)}</span>
          </>
        )
        const active = activePath !== undefined && item.url.split('?')[0] === activePath
        return (
          <li key={`${item.key}-${item.sort}`} className={active ? 'active' : undefined}>
            {item.jumpType === 'outer' ? (
              <a href={item.url} target="_blank" rel="noopener noreferrer" data-menu={item.key}>
                {content}
              </a>
            ) : (
              <Link href={item.url} onClick={onNavigate} data-menu={item.key}>
                {content}
              </Link>
            )}
          </li>
        )
      })}
    </ul>
  )
}
