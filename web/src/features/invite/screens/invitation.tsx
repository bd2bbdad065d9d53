import { useTranslation } from '../../../lib/i18n'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { copyText as copy } from '../../../lib/clipboard'
import { useInviteInfo } from '../api/get-invite-info'

/** The user's invite code and link, ready to share. */
export default function InvitationScreen() {
  const { t } = useTranslation()
  const info = useInviteInfo()
  return (
    <Screen title={t('invite.title')}>
      <DataState {...info}>
        {(data) => {
          const link = new URL(data.inviteUrl, window.location.origin).href
          return (
            <div className="card form">
              <div className="stat">
                <span className="stat-label">{t('invite.code')}</span>
                <span
                  className="stat-value num"
                  style={{ fontSize: 28, letterSpacing: 2 }}
                  data-testid="invite-code"
                >
                  {data.inviteCode}
                </span>
              </div>
              <div className="stat">
                <span className="stat-label">{t('invite.link')}</span>
                <span style={{ wordBreak: 'break-all' }}>{link}</span>
              </div>
              <button type="button" className="button button-primary" onClick={() => copy(link)}>
                {t('invite.copyLink')}
              </button>
            </div>
          )
        }}
      </DataState>
    </Screen>
  )
}
