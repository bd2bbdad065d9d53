import { useTranslation } from '../lib/i18n'
import { ApiError } from '../lib/http'
import { EmptyIcon } from './icons'

/** The error catalogue's message for a failure: the HTTP client's own text, or "Network anomaly" for a lost chunk. */
export function useFailureText(): (error: unknown) => string {
  const { t } = useTranslation()
  return (error) => {
    if (error instanceof ApiError && error.reason !== 'aborted') return error.message
    // a lazily loaded screen whose file could not be fetched
    if (error instanceof TypeError) return t('errors.networkAnomaly')
    return t('errors.systemError')
  }
}

/** What stands where a screen or a list failed: the message and a way to try again. */
export function Failure({ error, onRetry }: { error: unknown; onRetry: () => unknown }) {
  const { t } = useTranslation()
  const text = useFailureText()
  return (
    <div className="no-data" role="alert" data-testid="failure">
      <EmptyIcon size={56} />
      <p>{text(error)}</p>
      <button type="button" className="button button-primary" onClick={() => void onRetry()}>
        {t('money.retry')}
      </button>
    </div>
  )
}
