import { useTranslation } from '../../../lib/i18n'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useMyFollows } from '../api/get-my-follows'
import { stopFollow } from '../api/stop-follow'

export default function MyFollowsScreen() {
  const { t } = useTranslation()
  const follows = useMyFollows()
  const stop = async (id: number) => {
    try {
      await stopFollow(id)
      showToast(t('common.success'))
      void follows.mutate()
    } catch {
      // already shown by the HTTP client
    }
  }
  return (
    <Screen title={t('follow.mine')}>
      <DataList source={follows}>
        {(row) => (
          <ListRow
            key={row.id}
            title={row.nickname}
            sub={
              <>
                {row.amount} USDT ·{' '}
                <span className={row.profit.startsWith('-') ? 'down' : 'up'}>{row.profit}</span>
              </>
            }
            subClassName="num"
            end={
              row.status === 'following' ? (
                <button type="button" className="button button-small" onClick={() => void stop(row.id)}>
                  {t('follow.stop')}
                </button>
              ) : (
                <span className="tag">{t('follow.stopped')}</span>
              )
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
