import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { usePayAddress } from '../api/get-pay-address'
import { useRechargeCoins } from '../api/get-recharge-coins'

/** Deposit: pick a coin, copy its address. */
export default function RechargeScreen() {
  const { t } = useTranslation()
  const coins = useRechargeCoins()
  const [coin, setCoin] = useState<string | null>(null)
  const selected = coin ?? coins.data?.[0]?.coin ?? null
  const address = usePayAddress(selected)
  const copy = (text: string) =>
    navigator.clipboard?.writeText(text).then(
      () => showToast(t('common.copied')),
      () => undefined,
    )
  return (
    <Screen title={t('menu.recharge')}>
      <DataState {...coins} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <>
            <div className="segmented" role="group">
              {rows.map((row) => (
                <button
                  key={row.coin}
                  type="button"
                  aria-pressed={selected === row.coin}
                  onClick={() => setCoin(row.coin)}
                >
                  {row.coinName}
                </button>
              ))}
            </div>
            <div className="card form">
              <p className="stat-label">{t('wallet.depositAddress')}</p>
              <p
                className="num"
                style={{ wordBreak: 'break-all', fontWeight: 600 }}
                data-testid="deposit-address"
              >
                {address.data?.address ?? '--'}
              </p>
              {address.data && (
                <button
                  type="button"
                  className="button"
                  onClick={() => void copy(address.data?.address ?? '')}
                >
                  {t('common.copy')}
                </button>
              )}
              {rows
                .filter((row) => row.coin === selected)
                .map((row) => (
                  <p key={row.coin} className="muted">
                    {t('wallet.depositLimits', { min: row.rechargeMin, max: row.rechargeMax })}
                  </p>
                ))}
            </div>
          </>
        )}
      </DataState>
    </Screen>
  )
}
