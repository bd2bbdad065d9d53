import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { DataList, ListRow } from '../../../components/data-list'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { Stat } from '../../../components/stat'
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
            <Stat label={t('invite.teamSize')}>{data.teamSize}</Stat>
            <Stat label={t('invite.rebateTotal')} valueClassName="stat-value num up">
              {data.rebateTotal} USDT
            </Stat>
          </div>
        )}
      </DataState>
      <Link href="/invaite" className="button button-primary button-block">
        {t('invite.inviteFriends')}
      </Link>
      <h2 className="section-title">{t('invite.team')}</h2>
      <DataList source={team}>
        {(member) => (
          <ListRow
            key={member.userId}
            title={member.username}
            end={<span className="muted phrase">{date(member.createdAt)}</span>}
          />
        )}
      </DataList>
    </Screen>
  )
}
