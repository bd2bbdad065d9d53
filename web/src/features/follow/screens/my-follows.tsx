import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
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
      <DataState {...follows} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <ul className="list">
            {rows.map((row) => (
              <li key={row.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{row.nickname}</span>
                  <span className="list-row-sub num">
                    {row.amount} USDT ·{' '}
                    <span className={row.profit.startsWith('-') ? 'down' : 'up'}>{row.profit}</span>
                  </span>
                </span>
                {row.status === 'following' ? (
                  <button type="button" className="button button-small" onClick={() => void stop(row.id)}>
                    {t('follow.stop')}
                  </button>
                ) : (
                  <span className="tag">{t('follow.stopped')}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
