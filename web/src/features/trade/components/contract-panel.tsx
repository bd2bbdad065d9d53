import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContractPair } from '@tradegate/shared'
import { SubmittingOverlay } from '../../../components/submitting-overlay'
import { useTicker, useUserEvents } from '../../../lib/live'
import { useSettings } from '../../../lib/settings'
import { showToast } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { cancelContractOrder } from '../api/cancel-contract-order'
import { useBalances } from '../api/get-asset-balance'
import { useOpenContractOrders } from '../api/get-contract-orders'
import { useLossSettings } from '../api/get-loss-settings'
import { useOpenPositions } from '../api/get-positions'
import { submitContractOrder } from '../api/submit-contract-order'
import { availableOf, contractPreview, leverageChoices, sanitiseAmount } from '../lib/order-math'
import { AmountInput, Choice, Figure, FundPasswordField, OrderError } from './form-bits'
import { useOrderSubmit } from './order-submit'
import { PositionCard } from './position-card'
import { TransferForm } from './transfer-form'

type Direction = 'long' | 'short'
type OrderType = 'market' | 'limit'

/** Leveraged contracts: the order form with its margin preview, then positions and open orders. */
export function ContractPanel({ pair, pairs }: { pair: ContractPair; pairs: readonly ContractPair[] }) {
  const { t } = useTranslation()
  const settings = useSettings()
  const ticker = useTicker(pair.symbol)
  const balances = useBalances()
  const positions = useOpenPositions()
  const orders = useOpenContractOrders()
  const losses = useLossSettings()
  const positionEvent = useUserEvents('POSITION')
  const { price: formatPrice, amount: formatAmount, dateTime } = useFormatters()
  const leverages = leverageChoices(pair)
  const [direction, setDirection] = useState<Direction>('long')
  const [type, setType] = useState<OrderType>('market')
  const [leverage, setLeverage] = useState(leverages[1] ?? leverages[0] ?? 1)
  const [shares, setShares] = useState('')
  const [price, setPrice] = useState('')
  const [fundPwd, setFundPwd] = useState('')
  const [listTab, setListTab] = useState<'positions' | 'orders'>('positions')
  const [transferOpen, setTransferOpen] = useState(false)
  const refreshAll = () => {
    void balances.mutate()
    void positions.mutate()
    void orders.mutate()
    void losses.mutate()
  }
  const { submitting, error, run } = useOrderSubmit(refreshAll)

  // a fill, liquidation or triggered stop arrives as a POSITION event: the lists are fetched again
  useEffect(() => {
    if (positionEvent) refreshAll()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [positionEvent])

  const available = availableOf(balances.data, 'usdt', 'contract')
  const orderPrice = type === 'limit' ? price : (ticker?.close ?? '0')
  const preview = contractPreview(shares || '0', leverage, orderPrice, direction, pair)
  const sharesNumberOk = /^\d+$/.test(shares) && Number(shares) > 0

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const order = await submitContractOrder({
        symbol: pair.symbol,
        direction,
        type,
        leverage,
        shares,
        ...(type === 'limit' ? { price } : {}),
        ...(settings.FUND_PASSWORD_SETTING.contract ? { fundPwd } : {}),
      })
      showToast(t(order.status === 'filled' ? 'trade.positionOpened' : 'trade.orderPlaced'))
      setShares('')
    })
  }

  const openPositions = positions.data?.rows ?? []
  const openOrders = orders.data ?? []
  const shareNumbers = new Map(pairs.map((candidate) => [candidate.symbol, candidate.shareNumber]))

  return (
    <>
      <section className="panel trade-form-area" aria-label={t('trade.tabs.Ustandard')}>
        <form className="order-form" onSubmit={submit} noValidate data-testid="contract-form">
          <Choice
            label={t('trade.direction')}
            value={direction}
            onChange={setDirection}
            tone={(value) => (value === 'long' ? 'up' : 'down')}
            options={[
              { value: 'long', label: t('trade.long') },
              { value: 'short', label: t('trade.short') },
            ]}
          />
          <Choice
            label={t('trade.orderType')}
            value={type}
            onChange={setType}
            options={[
              { value: 'market', label: t('trade.market') },
              { value: 'limit', label: t('trade.limit') },
            ]}
          />
          <div className="field">
            <span className="field-label">{t('trade.leverage')}</span>
            <div className="leverage-chips" role="group" aria-label={t('trade.leverage')}>
              {leverages.map((choice) => (
                <button
                  key={choice}
                  type="button"
                  className="chip"
                  aria-pressed={choice === leverage}
                  onClick={() => setLeverage(choice)}
                  data-leverage={choice}
                >
                  {choice}×
                </button>
              ))}
            </div>
          </div>
          {type === 'limit' && (
            <AmountInput
              label={t('trade.price')}
              name="price"
              unit="usdt"
              value={price}
              onChange={(text) => setPrice(sanitiseAmount(text, pair.baseScale))}
            />
          )}
          <AmountInput
            label={t('trade.shares')}
            name="shares"
            unit={t('trade.sharesUnit')}
            hint={`${pair.minShare} – ${pair.maxShare}`}
            value={shares}
            onChange={(text) => setShares(sanitiseAmount(text, 0))}
          />
          <div className="figures">
            <Figure label={t('trade.available')} testId="contract-available">
              {formatAmount(available, 2)} USDT
            </Figure>
            <Figure label={t('trade.positionValue')}>{formatAmount(preview.value, 2)} USDT</Figure>
            <Figure label={t('trade.margin')} testId="contract-margin">
              {formatAmount(preview.margin, 4)} USDT
            </Figure>
            <Figure label={t('trade.openFee')}>{formatAmount(preview.openFee, 4)} USDT</Figure>
            <Figure label={t('trade.closeFee')}>{formatAmount(preview.closeFee, 4)} USDT</Figure>
            <Figure label={t('trade.liquidationPrice')} testId="contract-liquidation">
              {sharesNumberOk ? formatPrice(preview.liquidationPrice) : '--'}
            </Figure>
          </div>
          <FundPasswordField
            needed={settings.FUND_PASSWORD_SETTING.contract}
            value={fundPwd}
            onChange={setFundPwd}
          />
          <OrderError message={error} />
          <button
            type="submit"
            className={`button button-block ${direction === 'long' ? 'button-up' : 'button-down'}`}
            disabled={!sharesNumberOk || (type === 'limit' && !price) || submitting}
            data-testid="contract-submit"
          >
            {t(direction === 'long' ? 'trade.openLong' : 'trade.openShort')}
          </button>
        </form>
        <button
          type="button"
          className="button button-text"
          onClick={() => setTransferOpen((open) => !open)}
          aria-expanded={transferOpen}
          data-testid="open-transfer"
        >
          {t('trade.transferToContract')}
        </button>
        {transferOpen && (
          <TransferForm
            available={availableOf(balances.data, 'usdt', 'platform')}
            onDone={() => {
              setTransferOpen(false)
              void balances.mutate()
            }}
          />
        )}
        <SubmittingOverlay visible={submitting} />
      </section>
      <section className="panel trade-orders-area">
        <div className="panel-tabs" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={listTab === 'positions'}
            onClick={() => setListTab('positions')}
            data-testid="positions-tab"
          >
            {t('trade.positions')} ({openPositions.length})
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={listTab === 'orders'}
            onClick={() => setListTab('orders')}
            data-testid="open-orders-tab"
          >
            {t('trade.openOrders')} ({openOrders.length})
          </button>
        </div>
        {listTab === 'positions' ? (
          <div className="position-list" data-testid="positions">
            {openPositions.length === 0 && <p className="muted empty-line">{t('trade.noPositions')}</p>}
            {openPositions.map((position) => (
              <PositionCard
                key={position.id}
                position={position}
                shareNumber={shareNumbers.get(position.symbol) ?? pair.shareNumber}
                loss={losses.data?.find((row) => row.positionId === position.id && row.status === 'active')}
                onChanged={refreshAll}
              />
            ))}
          </div>
        ) : (
          <div className="table-scroll">
            <table className="data-table" data-testid="contract-orders">
              <thead>
                <tr>
                  <th className="desktop-only">{t('trade.time')}</th>
                  <th>{t('trade.pair')}</th>
                  <th>{t('trade.direction')}</th>
                  <th>{t('trade.price')}</th>
                  <th>{t('trade.shares')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {openOrders.map((order) => (
                  <tr key={order.id}>
                    <td className="num muted desktop-only">{dateTime(order.createdAt)}</td>
                    <td>{order.symbol.toUpperCase()}</td>
                    <td className={order.direction === 'long' ? 'up' : 'down'}>
                      {t(`trade.${order.direction}`)} {order.leverage}×
                    </td>
                    <td className="num">{formatPrice(order.price)}</td>
                    <td className="num">{order.shares}</td>
                    <td>
                      <CancelOrderButton id={order.id} onDone={refreshAll} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {openOrders.length === 0 && <p className="muted empty-line">{t('trade.noOrders')}</p>}
          </div>
        )}
      </section>
    </>
  )
}

function CancelOrderButton({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const cancel = async () => {
    setBusy(true)
    try {
      await cancelContractOrder(id)
      showToast(t('trade.orderCancelled'))
    } catch {
      // the HTTP client has shown the message
    } finally {
      setBusy(false)
      onDone()
    }
  }
  return (
    <button type="button" className="button button-small" disabled={busy} onClick={() => void cancel()}>
      {t('trade.cancel')}
    </button>
  )
}
