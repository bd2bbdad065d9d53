import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { claimWelfare } from '../api/claim-welfare'
import { useWelfareTasks } from '../api/get-welfare-tasks'

/** Welfare centre: reward tasks, claimable once done. */
export default function WelfareScreen() {
  const { t } = useTranslation()
  const tasks = useWelfareTasks()
  const claim = async (id: number) => {
    try {
      await claimWelfare(id)
      showToast(t('welfare.claimed'))
      void tasks.mutate()
    } catch {
      // already shown by the HTTP client
    }
  }
  return (
    <Screen title={t('menu.welfare')}>
      <DataState {...tasks} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <ul className="list">
            {rows.map((task) => (
              <li key={task.id} className="list-row">
                <span className="list-row-main">
                  <span className="list-row-title">{task.title}</span>
                  <span className="list-row-sub up num">
                    +{task.reward} {task.coin.toUpperCase()}
                  </span>
                </span>
                {task.status === 'claimable' ? (
                  <button
                    type="button"
                    className="button button-primary button-small"
                    onClick={() => void claim(task.id)}
                  >
                    {t('welfare.claim')}
                  </button>
                ) : (
                  <span className="tag">{t(`welfare.status.${task.status}`)}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
