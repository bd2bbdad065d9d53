import { useTranslation } from '../lib/i18n'
import { toggleBalancesVisible, useBalancesVisible } from '../lib/theme'
import { EyeIcon, EyeOffIcon } from './icons'

/** A balance that the eyes switch can mask. */
export function HiddenAmount({ children, testId }: { children: string; testId?: string }) {
  const visible = useBalancesVisible()
  return (
    <span className="num" data-testid={testId}>
      {visible ? children : '****'}
    </span>
  )
}

export function EyesToggle() {
  const { t } = useTranslation()
  const visible = useBalancesVisible()
  return (
    <button
      type="button"
      className="icon-button"
      onClick={toggleBalancesVisible}
      aria-label={visible ? t('common.hideBalances') : t('common.showBalances')}
      aria-pressed={!visible}
      data-testid="eyes-toggle"
    >
      {visible ? <EyeIcon /> : <EyeOffIcon />}
    </button>
  )
}
