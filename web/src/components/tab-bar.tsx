import { useTranslation } from '../lib/i18n'
import { Link, useLocation } from 'wouter'
import { TAB_BAR } from '@tradegate/shared'
import { TabIcon } from './icons'

const items = [...TAB_BAR.items].sort((left, right) => left.sort - right.sort)

function pathOf(link: string): string {
  return link.split('?')[0] ?? link
}

export function showsTabBar(path: string): boolean {
  return (TAB_BAR.paths as readonly string[]).includes(path)
}

/** The five-item bottom bar, only on its own paths; the centre trade item is the large button. */
export function TabBar() {
  const { t } = useTranslation()
  const [location] = useLocation()
  if (!showsTabBar(location)) return null
  return (
    <nav className="tab-bar" aria-label={t('tabBar.label')}>
      {items.map((item) => {
        const active = pathOf(item.link) === location
        const centre = item.key === 'trade'
        return (
          <Link
            key={item.key}
            href={item.link}
            className={`tab-item${active ? ' active' : ''}${centre ? ' tab-centre' : ''}`}
            aria-current={active ? 'page' : undefined}
            data-tab={item.key}
          >
            <span className="tab-icon">
              <TabIcon
                name={centre ? 'trade' : item.key}
                active={active}
                size={centre ? TAB_BAR.centreIconPx : TAB_BAR.iconPx}
              />
            </span>
            <span className="tab-label">{t(`tabBar.${item.label}`)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
