import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataState } from '../../../components/data-state'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { usePayAddress } from '../api/get-pay-address'
import { useRechargeCoins } from '../api/get-recharge-coins'

/** Deposit: pick a coin and chain (USDT-TRC20, ...), copy its address. */
export default function RechargeScreen() {
  const { t } = useTranslation()
  const coins = useRechargeCoins()
  const [chosen, setChosen] = useState<string | null>(null)
  const selected = coins.data?.find((row) => row.coinName === chosen) ?? coins.data?.[0]
  const chain = selected?.coinName.split('-')[1]
  const address = usePayAddress(selected ? { coin: selected.coin, ...(chain ? { chain } : {}) } : null)
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
            <div className="chips" role="group">
              {rows.map((row) => (
                <button
                  key={row.coinName}
                  type="button"
                  aria-pressed={selected?.coinName === row.coinName}
                  onClick={() => setChosen(row.coinName)}
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
              {selected && (
                <p className="muted">
                  {t('wallet.depositLimits', { min: selected.rechargeMin, max: selected.rechargeMax })}
                </p>
              )}
            </div>
          </>
        )}
      </DataState>
    </Screen>
  )
}
