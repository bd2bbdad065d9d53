import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useTraders } from '../api/get-traders'

/** Copy trading: the traders one can follow. */
export default function TraderListScreen() {
  const { t } = useTranslation()
  const traders = useTraders()
  return (
    <Screen
      title={t('menu.follow')}
      right={
        <Link href="/floworder/mine" className="button button-text">
          {t('follow.mine')}
        </Link>
      }
    >
      <Link href="/floworder/apply" className="button button-block">
        {t('follow.apply')}
      </Link>
      <DataState {...traders} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((trader) => (
              <li key={trader.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{trader.nickname}</span>
                  <span className="list-row-sub">
                    {t('follow.winRate')} <span className="up num">{trader.winRate}%</span> ·{' '}
                    {t('follow.followers')}{' '}
                    <span className="num">
                      {trader.followers}/{trader.maxFollowers}
                    </span>
                  </span>
                </span>
                <Link href={`/floworder/confirm/${trader.id}`} className="button button-primary button-small">
                  {t('follow.follow')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
