import { useTranslation } from '../lib/i18n'
import type { Submit } from '../lib/submit'

/** Covers the screen while an order is being submitted or checked, so it cannot be sent twice. */
export function SubmittingOverlay({ submit }: { submit: Pick<Submit, 'busy' | 'phase'> }) {
  const { t } = useTranslation()
  if (!submit.busy) return null
  return (
    <div className="overlay" role="alertdialog" aria-busy="true" aria-live="assertive">
      <div className="overlay-box">
        <span className="spinner" />
        <p>{t(submit.phase === 'unconfirmed' ? 'submit.unconfirmed' : 'common.submittingOrder')}</p>
      </div>
    </div>
  )
}
