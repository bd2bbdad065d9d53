import { useTranslation } from '../../../lib/i18n'
import { networkRule, type RechargeCoin } from '@tradegate/shared'
import { Failure } from '../../../components/failure'
import { QrCode } from '../../../components/qr-code'
import { copyText } from '../../../lib/clipboard'
import { usePayAddress } from '../api/get-pay-address'

/** Where to send a deposit of the chosen coin and network: a warning, the address and its QR code, the limits. */
export function DepositAddress({ selected, network }: { selected: RechargeCoin; network?: string }) {
  const { t } = useTranslation()
  const coin = selected.coin.toUpperCase()
  const address = usePayAddress({ coin: selected.coin, ...(network ? { chain: network } : {}) })
  return (
    <div className="card form">
      <p className="note note-warning" data-testid="network-warning">
        {t('money.recharge.networkWarning', { coin, network: network ?? coin })}
      </p>
      {address.data ? (
        <>
          <QrCode text={address.data.address} label={t('money.recharge.qr', { coin })} testId="deposit-qr" />
          <p className="stat-label">
            {t('wallet.depositAddress')} · {network}
          </p>
          <p
            className="num"
            style={{ wordBreak: 'break-all', fontWeight: 600 }}
            data-testid="deposit-address"
          >
            {address.data.address}
          </p>
          <button type="button" className="button" onClick={() => copyText(address.data?.address ?? '')}>
            {t('common.copy')}
          </button>
          {address.data.memo && <DepositMemo memo={address.data.memo} network={network} />}
        </>
      ) : address.error ? (
        <Failure error={address.error} onRetry={address.retry} />
      ) : (
        <p className="muted" data-testid="deposit-address">
          {t('money.recharge.addressComing')}
        </p>
      )}
      <p className="kv">
        <span>{t('money.recharge.minimum')}</span>
        <span className="num" data-testid="recharge-minimum">
          {selected.rechargeMin} {coin}
        </span>
      </p>
      <p className="muted">{t('money.recharge.belowMinimumLost', { min: selected.rechargeMin, coin })}</p>
      <p className="muted">{t('money.recharge.arrival')}</p>
    </div>
  )
}

/** The tag (or memo) that names the account on a network whose deposit address is shared, e.g. XRP. */
function DepositMemo({ memo, network }: { memo: string; network?: string }) {
  const { t } = useTranslation()
  const kind = t(networkRule(network)?.memo?.kind === 'memo' ? 'withdrawal.memo' : 'withdrawal.tag')
  return (
    <>
      <p className="stat-label">{kind}</p>
      <p className="num" style={{ fontWeight: 600 }} data-testid="deposit-memo">
        {memo}
      </p>
      <button
        type="button"
        className="button"
        onClick={() => copyText(memo)}
        aria-label={`${t('common.copy')} ${kind}`}
      >
        {t('common.copy')}
      </button>
      <p className="note note-warning" data-testid="deposit-memo-note">
        {t('money.recharge.tagNote', { kind })}
      </p>
    </>
  )
}
