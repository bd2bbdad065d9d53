import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'wouter'
import { StaleNote } from '../../../components/balance-notices'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { availableOf } from '../../../lib/order-math'
import { useWithdrawChannels } from '../api/get-withdraw-channels'
import { useWithdrawStatus } from '../api/get-withdraw-status'
import { WithdrawForm } from '../components/withdraw-form'
import { WithdrawRules } from '../components/withdraw-rules'

/** The coin of a channel, which is named COIN-NETWORK, e.g. USDT-TRC20. */
function coinOfChannel(name: string): string {
  return (name.split('-')[0] ?? '').toLowerCase()
}

/** Withdraw: the network, every rule before the user types, the form, and a confirmation step. */
export default function WithdrawScreen() {
  const { t } = useTranslation()
  const channels = useWithdrawChannels()
  const status = useWithdrawStatus()
  const balances = useBalances()
  const [chosen, setChosen] = useState<string | null>(null)
  // a link may name the coin (/withdraw?coin=xrp): its first network is chosen until the user picks
  const named = useSearchParams()[0].get('coin')?.toLowerCase()
  const channel =
    channels.data?.find((row) => row.rechargeName === chosen) ??
    channels.data?.find((row) => coinOfChannel(row.rechargeName) === named) ??
    channels.data?.[0]
  const coin = coinOfChannel(channel?.rechargeName ?? '')
  const available = availableOf(balances.data, coin, 'platform')
  const windowOpen = status.data?.open ?? true
  return (
    <Screen title={t('wallet.withdraw')}>
      <StaleNote stale={balances.stale} />
      <DataState {...channels} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <>
            <div className="chips" role="group" aria-label={t('wallet.channel')}>
              {rows.map((row) => (
                <button
                  key={row.rechargeName}
                  type="button"
                  aria-pressed={row.rechargeName === channel?.rechargeName}
                  onClick={() => setChosen(row.rechargeName)}
                >
                  {row.rechargeName}
                </button>
              ))}
            </div>
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
