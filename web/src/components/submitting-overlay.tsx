import { useTranslation } from 'react-i18next'

/** Covers the screen while an order is being submitted, so it cannot be sent twice. */
export function SubmittingOverlay({ visible }: { visible: boolean }) {
  const { t } = useTranslation()
  if (!visible) return null
  return (
    <div className="overlay" role="alertdialog" aria-busy="true" aria-live="assertive">
      <div className="overlay-box">
        <span className="spinner" />
        <p>{t('common.submittingOrder')}</p>
      </div>
    </div>
  )
}
