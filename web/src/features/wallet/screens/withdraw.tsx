import { useTranslation } from '../../../lib/i18n'
import { StaleNote } from '../../../components/balance-notices'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { availableOf } from '../../../lib/order-math'
import { useWithdrawChannels } from '../api/get-withdraw-channels'
import { useWithdrawStatus } from '../api/get-withdraw-status'
import { ChannelChips, useShownChannel } from '../components/channel-chips'
import { WithdrawForm } from '../components/withdraw-form'
import { WithdrawRules } from '../components/withdraw-rules'
import { coinOfChannel } from '../lib/channels'

/** Withdraw: the network, every rule before the user types, the form, and a confirmation step. */
export default function WithdrawScreen() {
  const { t } = useTranslation()
  const channels = useWithdrawChannels()
  const status = useWithdrawStatus()
  const balances = useBalances()
  const [channel, pick] = useShownChannel(channels.data, (row) => row.rechargeName)
  const coin = coinOfChannel(channel?.rechargeName ?? '')
  const available = availableOf(balances.data, coin, 'platform')
  const windowOpen = status.data?.open ?? true
  return (
    <Screen title={t('wallet.withdraw')}>
      <StaleNote stale={balances.stale} />
      <DataState {...channels} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <>
            <ChannelChips
              names={rows.map((row) => row.rechargeName)}
              shown={channel?.rechargeName}
              label={t('wallet.channel')}
              onPick={pick}
            />
            <WithdrawRules channel={channel} coin={coin} available={available} status={status.data} />
            {!windowOpen && <p className="note note-warning">{t('errors.withdrawOutsideWindow')}</p>}
            {channel && (
              <WithdrawForm
                key={channel.rechargeName}
                channel={channel}
                coin={coin}
                available={available}
                freeLeft={status.data?.freeLeft ?? 0}
                onSubmitted={() => {
                  void status.mutate()
                  void balances.mutate()
                }}
              />
            )}
          </>
        )}
      </DataState>
    </Screen>
  )
}
