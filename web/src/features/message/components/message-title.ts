import { useTranslation } from '../../../lib/i18n'

/** Message titles arrive as keys (welcome, depositCredited); known keys are shown translated. */
export function useMessageTitle(): (title: string) => string {
  const { t, i18n } = useTranslation()
  return (title) => (i18n.exists(`message.titles.${title}`) ? t(`message.titles.${title}`) : title)
}
