import { useTranslation } from '../lib/i18n'
import { phaseText, type Submit } from '../lib/submit'

/**
 * What happened to a submission whose answer did not come: "not confirmed yet" while the lookup
 * runs, then went through, did not go through (or what happened in its place), or still unknown and
 * where to check. Nothing for a submission that was answered (its own toast or error says so).
 */
export function SubmitNotice({ submit }: { submit: Pick<Submit, 'phase' | 'checkWhere' | 'instead'> }) {
  // renders again when the language changes: phaseText reads the same i18n instance
  useTranslation()
  const { phase, checkWhere, instead } = submit
  if (phase === 'idle' || phase === 'sending') return null
  const warning = phase === 'unknown' || phase === 'notThrough'
  return (
    <p
      className={warning ? 'note note-warning' : 'note'}
      role={phase === 'unconfirmed' ? 'status' : 'alert'}
      data-testid="submit-notice"
      data-phase={phase}
    >
      {phaseText({ phase, instead }, checkWhere)}
    </p>
  )
}
