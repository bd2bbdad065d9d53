import { useTranslation } from '../../../lib/i18n'
import type { WithdrawChannel } from '@tradegate/shared'
import { useSettings } from '../../../lib/settings'
import { useFormatters } from '../../../lib/use-formatters'

export interface WithdrawStatus {
  open: boolean
  usedToday: number
  dayCount: number
  freeLeft: number
}

/** Every rule of a withdrawal on the chosen network, shown before anything is typed. */
export function WithdrawRules({
  channel,
  coin,
  available,
  status,
}: {
  channel: WithdrawChannel | undefined
  coin: string
  available: string
  status: WithdrawStatus | undefined
}) {
  const { t } = useTranslation()
  const { money } = useFormatters()
  const settings = useSettings()
  const rules = settings.WITHDRAWAL_SETTING
  const COIN = coin.toUpperCase()
  const freeLeft = status?.freeLeft ?? 0
  return (
    <div className="card form" data-testid="withdraw-rules">
      <p className="kv">
        <span>{t('money.withdraw.window')}</span>
        <span data-testid="withdraw-window">
          <span className="num">
            {rules.startTime.slice(0, 5)}–{rules.endTime.slice(0, 5)} (UTC{settings.DEFAULT_TIME_ZONE.label})
          </span>{' '}
          · {(status?.open ?? true) ? t('money.withdraw.openNow') : t('money.withdraw.closedNow')}
        </span>
      </p>
      <p className="kv">
        <span>{t('money.available')}</span>
        <span className="num" data-testid="withdraw-available">
          {money(available, coin)} {COIN}
        </span>
      </p>
      <p className="kv">
        <span>{t('wallet.minMax')}</span>
        <span className="num" data-testid="withdraw-limits">
          {channel
            ? `${money(channel.withdrawalMix, coin)} – ${money(channel.withdrawalMax, coin)} ${COIN}`
            : '--'}
        </span>
      </p>
      <p className="kv">
        <span>{t('wallet.todayLeft')}</span>
        <span className="num">
          {status ? `${status.dayCount - status.usedToday}/${status.dayCount}` : '--'}
        </span>
      </p>
      <p className="kv">
        <span>{t('wallet.feeRatio')}</span>
        <span className="phrase" data-testid="withdraw-fee-rule">
          {freeLeft > 0
            ? t('money.withdraw.freeLeft', { count: freeLeft })
            : t('money.withdraw.feeRule', { ratio: channel?.ratio ?? rules.ratio })}
        </span>
      </p>
    </div>
  )
}
