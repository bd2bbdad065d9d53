import { useTranslation } from '../../../lib/i18n'
import { ListRow } from '../../../components/data-list'
import { DataState } from '../../../components/data-state'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
import { useSettings } from '../../../lib/settings'
import { useAccountInfo } from '../../../lib/api/get-info'

const LEVELS = [
  { level: 'primary', open: 'primaryOpen', approvedFrom: 1 },
  { level: 'advanced', open: 'seniorOpen', approvedFrom: 2 },
] as const

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
              <Stat label={t('account.level')}>{user.kycLevel}</Stat>
              <Stat label={t('account.status')} valueClassName="stat-value" testId="kyc-status">
                {t(`account.kyc.${user.kycStatus}`)}
              </Stat>
            </div>
            <ul className="list">
              {LEVELS.filter(({ open }) => AUTH_LIMIT[open]).map(({ level, approvedFrom }) => (
                <ListRow
                  key={level}
                  href={`/${level}`}
                  title={t(`menu.${level}`)}
                  sub={t(`kycInfo.${level}`)}
                  end={
                    <span className="list-row-end muted">
                      {user.kycLevel >= approvedFrom ? t('account.kyc.approved') : ''}
                      <ChevronIcon size={16} />
                    </span>
                  }
                />
              ))}
            </ul>
            <p className="note" data-testid="kyc-review-time">
              {t('kycInfo.reviewTime')}
            </p>
          </>
        )}
      </DataState>
    </Screen>
  )
}
