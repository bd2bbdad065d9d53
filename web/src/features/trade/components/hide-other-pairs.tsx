import { useTranslation } from '../../../lib/i18n'

/** The switch over an every-pair open orders list that narrows it to the pair on screen. */
export function HideOtherPairs({
  checked,
  onChange,
}: {
  checked: boolean
  onChange: (next: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <label className="check hide-other-pairs">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="hide-other-pairs"
      />
      <span>{t('desk.hideOtherPairs')}</span>
    </label>
  )
}
