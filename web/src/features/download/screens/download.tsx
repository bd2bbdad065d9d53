import { useTranslation } from '../../../lib/i18n'
import { AndroidIcon, AppleIcon, LogoMark } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'

export default function DownloadScreen() {
  const { t } = useTranslation()
  const { DOWNLOADS } = useSettings()
  return (
    <Screen title={t('download.title')}>
      <div className="card credit-card">
        <LogoMark size={64} />
        <h2 style={{ marginBlockStart: 12 }}>{t('brand')}</h2>
        <p className="muted">{t('download.hint')}</p>
      </div>
      <a
        href={DOWNLOADS.android}
        className="button button-primary button-block"
        download
        data-testid="download-android"
      >
        <AndroidIcon /> {t('download.android')}
      </a>
      <a href={DOWNLOADS.apple} className="button button-block" download data-testid="download-apple">
        <AppleIcon /> {t('download.apple')}
      </a>
    </Screen>
  )
}
