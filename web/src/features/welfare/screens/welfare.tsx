import { useTranslation } from '../../../lib/i18n'
import { DataList, ListRow } from '../../../components/data-list'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { claimWelfare } from '../api/claim-welfare'
import { useWelfareTasks } from '../api/get-welfare-tasks'

/** Welfare centre: reward tasks, claimable once done. */
export default function WelfareScreen() {
  const { t, i18n } = useTranslation()
  const tasks = useWelfareTasks()
  // the server names each task by a key; an unknown task keeps a neutral numbered title
  const titleOf = (task: { id: number; title: string }) =>
    i18n.exists(`money.welfareTasks.${task.title}`)
      ? t(`money.welfareTasks.${task.title}`)
      : t('money.welfareTasks.other', { id: task.id })
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
      <p className="muted">{t('money.welfareIntro')}</p>
      <DataList source={tasks}>
        {(task) => (
          <ListRow
            key={task.id}
            title={titleOf(task)}
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
