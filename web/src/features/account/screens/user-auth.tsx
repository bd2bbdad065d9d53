import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useSettings } from '../../../lib/settings'
import { useAccountInfo } from '../api/get-info'

/** Identity verification state and the two levels, primary and advanced. */
export default function UserAuthScreen() {
  const { t } = useTranslation()
  const { AUTH_LIMIT } = useSettings()
  const info = useAccountInfo()
  return (
    <Screen title={t('account.identity')}>
      <DataState {...info}>
        {({ user }) => (
          <>
            <div className="card stat-grid">
              <div className="stat">
                <span className="stat-label">{t('account.level')}</span>
                <span className="stat-value num">{user.kycLevel}</span>
              </div>
              <div className="stat">
                <span className="stat-label">{t('account.status')}</span>
                <span className="stat-value">{t(`account.kyc.${user.kycStatus}`)}</span>
              </div>
            </div>
            <ul className="list">
              {AUTH_LIMIT.primaryOpen && (
                <li>
                  <Link href="/primary" className="list-row">
                    <span className="list-row-title">{t('menu.primary')}</span>
                    <span className="list-row-end muted">
                      {user.kycLevel >= 1 ? t('account.kyc.approved') : ''}
                      <ChevronIcon size={16} />
                    </span>
                  </Link>
                </li>
              )}
              {AUTH_LIMIT.seniorOpen && (
                <li>
                  <Link href="/advanced" className="list-row">
                    <span className="list-row-title">{t('menu.advanced')}</span>
                    <span className="list-row-end muted">
                      {user.kycLevel >= 2 ? t('account.kyc.approved') : ''}
                      <ChevronIcon size={16} />
                    </span>
                  </Link>
                </li>
              )}
            </ul>
          </>
        )}
      </DataState>
    </Screen>
  )
}
