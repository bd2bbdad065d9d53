import { useTranslation } from '../../../lib/i18n'
import { NOTICE_KINDS } from '@tradegate/shared'
import { setMuted, useNoticeCentre } from '../../../lib/notices'

/** One switch per kind of event: whether it interrupts with a toast. Remembered on this device. */
export function NoticeMutes() {
  const { t } = useTranslation()
  const { muted } = useNoticeCentre()
  return (
    <fieldset className="card notice-mutes" data-testid="notice-mutes">
      <legend className="stat-label">{t('notices.mutes')}</legend>
      <p className="muted">{t('notices.mutesHint')}</p>
      {NOTICE_KINDS.map((kind) => (
        <label key={kind} className="check-row">
          <input
            type="checkbox"
            checked={!muted.has(kind)}
            onChange={(event) => setMuted(kind, !event.target.checked)}
            data-kind={kind}
          />
          <span>{t(`notices.kindName.${kind}`)}</span>
        </label>
      ))}
    </fieldset>
  )
}
