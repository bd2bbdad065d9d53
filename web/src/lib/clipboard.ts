import { i18n } from './i18n'
import { showToast } from './toast'

/** Copies text the user asked for and says so; a browser without clipboard access stays silent. */
export function copyText(text: string): void {
  void navigator.clipboard?.writeText(text).then(
    () => showToast(i18n.t('common.copied')),
    () => undefined,
  )
}
