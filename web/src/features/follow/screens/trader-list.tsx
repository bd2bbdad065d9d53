import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { DataList, ListRow } from '../../../components/data-list'
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
      <DataList source={traders}>
        {(trader) => (
          <ListRow
            key={trader.id}
            title={trader.nickname}
            sub={
              <>
                {t('follow.winRate')} <span className="up num">{trader.winRate}%</span> ·{' '}
                {t('follow.followers')}{' '}
                <span className="num">
                  {trader.followers}/{trader.maxFollowers}
                </span>
              </>
            }
            end={
              <Link href={`/floworder/confirm/${trader.id}`} className="button button-primary button-small">
                {t('follow.follow')}
              </Link>
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
