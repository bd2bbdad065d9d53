import { useTranslation } from 'react-i18next'
import { DataList, ListRow } from '../../../components/data-list'
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
      <DataList source={tasks}>
        {(task) => (
          <ListRow
            key={task.id}
            title={task.title}
            sub={`+${task.reward} ${task.coin.toUpperCase()}`}
            subClassName="up num"
            end={
              task.status === 'claimable' ? (
                <button
                  type="button"
                  className="button button-primary button-small"
                  onClick={() => void claim(task.id)}
                >
                  {t('welfare.claim')}
                </button>
              ) : (
                <span className="tag">{t(`welfare.status.${task.status}`)}</span>
              )
            }
          />
        )}
      </DataList>
    </Screen>
  )
}
