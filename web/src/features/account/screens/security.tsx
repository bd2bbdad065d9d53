import { useTranslation } from '../../../lib/i18n'
import { ListRow } from '../../../components/data-list'
import { DataState } from '../../../components/data-state'
import { ChevronIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { useAccountInfo } from '../../../lib/api/get-info'

/** Security centre: login password, fund password, e-mail, phone and identity level, each with its state. */
export default function SecurityScreen() {
  const { t } = useTranslation()
  const info = useAccountInfo()
  return (
    <Screen title={t('money.security.title')}>
      <DataState {...info}>
        {({ user }) => {
          const rows = [
            { href: '/changePassword', label: t('account.loginPassword'), state: t('account.change') },
            {
              href: '/fund-password',
              label: t('account.fundPassword'),
              state: user.hasFundPassword ? t('account.change') : t('account.notSet'),
            },
            {
              href: '/emailAuthentication',
              label: t('account.email'),
              state: user.email ?? t('account.notBound'),
              kind: user.email ? 'email' : undefined,
            },
            { href: '/phoneAuth', label: t('account.phone'), state: user.phone ?? t('account.notBound') },
            {
              href: '/userauth',
              label: t('account.identity'),
              // the level only once one is reached, so the state itself fits on a phone
              state:
                user.kycLevel > 0
                  ? `${t('money.security.level', { level: user.kycLevel })} · ${t(`account.kyc.${user.kycStatus}`)}`
                  : t(`account.kyc.${user.kycStatus}`),
            },
          ]
          return (
            <ul className="list security-list" data-testid="security-centre">
              {rows.map((row) => (
                <ListRow
                  key={row.href}
                  href={row.href}
                  title={row.label}
                  end={
                    <span className="list-row-end muted">
                      <span className="wrap-text" data-kind={row.kind}>
                        {row.state}
                      </span>
                      <ChevronIcon size={16} />
                    </span>
                  }
                />
              ))}
            </ul>
          )
        }}
      </DataState>
    </Screen>
  )
}
