import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useFormatters } from '../../../lib/use-formatters'
import { useInviteInfo } from '../api/get-invite-info'
import { useInviteTeam } from '../api/get-invite-team'

/** Promotion centre: team size, rebates and the invited members. */
export default function PromotionScreen() {
  const { t } = useTranslation()
  const { date } = useFormatters()
  const info = useInviteInfo()
  const team = useInviteTeam()
  return (
    <Screen title={t('menu.invite')}>
      <DataState {...info}>
        {(data) => (
          <div className="card stat-grid">
            <div className="stat">
              <span className="stat-label">{t('invite.teamSize')}</span>
              <span className="stat-value num">{data.teamSize}</span>
            </div>
            <div className="stat">
              <span className="stat-label">{t('invite.rebateTotal')}</span>
              <span className="stat-value num up">{data.rebateTotal} USDT</span>
            </div>
          </div>
        )}
      </DataState>
      <Link href="/invaite" className="button button-primary button-block">
        {t('invite.inviteFriends')}
      </Link>
      <h2 className="section-title">{t('invite.team')}</h2>
      <DataState {...team} isEmpty={(page) => page.rows.length === 0}>
        {(page) => (
          <ul className="list">
            {page.rows.map((member) => (
              <li key={member.userId} className="list-row">
                <span className="list-row-title">{member.username}</span>
                <span className="muted num">{date(member.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </DataState>
    </Screen>
  )
}
