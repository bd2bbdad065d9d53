import { useTranslation } from '../../../lib/i18n'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { useRechargeCoins } from '../api/get-recharge-coins'
import { useRechargeList } from '../api/get-recharge-list'
import { ChannelChips, useShownChannel } from '../components/channel-chips'
import { DepositAddress } from '../components/deposit-address'
import { RechargeReport } from '../components/recharge-report'
import { RequestList } from '../components/request-list'

/** Deposit: pick a coin and network, send to the shown address (or its QR code), then report the deposit. */
export default function RechargeScreen() {
  const { t } = useTranslation()
  const coins = useRechargeCoins()
  const recharges = useRechargeList()
  const [shown, pick] = useShownChannel(coins.data, (row) => row.coinName)
  return (
    <Screen title={t('menu.recharge')}>
      <DataState {...coins} isEmpty={(rows) => rows.length === 0}>
        {(rows) => {
          const selected = shown ?? rows[0]!
          // channels are named COIN-NETWORK, e.g. USDT-TRC20
          const network = selected.coinName.split('-')[1]
          return (
            <>
              <ChannelChips
                names={rows.map((row) => row.coinName)}
                shown={selected.coinName}
                label={t('money.recharge.network')}
                onPick={pick}
              />
              <DepositAddress selected={selected} network={network} />
              <RechargeReport
                selected={selected}
                network={network}
                onReported={() => void recharges.mutate()}
              />
              <p className="section-title">{t('money.recharge.recent')}</p>
              <RequestList source={recharges} testId="recharge-list" />
            </>
          )
        }}
      </DataState>
    </Screen>
  )
}
