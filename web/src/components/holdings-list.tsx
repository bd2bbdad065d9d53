import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { mul, toDecimal, type Holding, type Product } from '@tradegate/shared'
import { quoteRedeem } from '../lib/product-math'
import { useSubmit } from '../lib/submit'
import { showOutcome } from '../lib/toast'
import { useFormatters } from '../lib/use-formatters'
import { DataList } from './data-list'
import { SubmitNotice } from './submit-notice'

export interface HoldingsListProps {
  holdings: {
    data: { rows: readonly Holding[] } | undefined
    error: unknown
    isLoading: boolean
    mutate: () => unknown
  }
  products: readonly Product[]
  redeem: (id: number, signal: AbortSignal) => Promise<unknown>
  /** true once the holding is no longer running, after a redeem whose answer did not come */
  redeemed: (id: number) => Promise<boolean>
}

/** Savings or proxy holdings: stake, interest, term and state, with a redeem step for running ones. */
export function HoldingsList({ holdings, products, redeem, redeemed }: HoldingsListProps) {
  const { t } = useTranslation()
  const { money, date } = useFormatters()
  const [open, setOpen] = useState<number | null>(null)
  return (
    <DataList source={holdings} testId="holdings">
      {(row) => {
        const product = products.find((entry) => entry.id === row.productId)
        const COIN = row.coin.toUpperCase()
        return (
          <li className="card form" key={row.id} data-testid="holding" data-status={row.status}>
            <p className="kv">
              <span className="list-row-title">{row.name}</span>
              <span>{t(`savings.status.${row.status}`)}</span>
            </p>
            <p className="kv">
              <span>{t('savings.stake')}</span>
              <span className="num">
                {money(row.amount, row.coin)} {COIN}
              </span>
            </p>
            <p className="kv">
              <span>{t('savings.earned')}</span>
              <span className="num up">
                +{money(row.earned, row.coin)} {COIN}
              </span>
            </p>
            <p className="kv">
              <span>{row.status === 'redeeming' ? t('savings.arrives') : t('savings.maturity')}</span>
              <span className="phrase">{date(row.status === 'redeeming' ? row.settlesAt : row.endsAt)}</span>
            </p>
            {row.status === 'running' && product && open !== row.id && (
              <button type="button" className="button" onClick={() => setOpen(row.id)} data-testid="redeem">
                {t('savings.redeem')}
              </button>
            )}
            {row.status === 'running' && product && open === row.id && (
              <RedeemStep
                holding={row}
                product={product}
                redeem={(signal) => redeem(row.id, signal)}
                redeemed={() => redeemed(row.id)}
                onDone={() => {
                  setOpen(null)
                  void holdings.mutate()
                }}
                onBack={() => setOpen(null)}
              />
            )}
          </li>
        )
      }}
    </DataList>
  )
}

function RedeemStep(props: {
  holding: Holding
  product: Product
  redeem: (signal: AbortSignal) => Promise<unknown>
  redeemed: () => Promise<boolean>
  onDone: () => void
  onBack: () => void
}) {
  const { holding, product } = props
  const { t } = useTranslation()
  const { money, dateTime, percent, precisionOf } = useFormatters()
  // the settlement time counts from when the step was opened, stable across renders
  const [openedAt] = useState(() => Date.now())
  const quote = quoteRedeem(holding, product, precisionOf(holding.coin), openedAt)
  const COIN = holding.coin.toUpperCase()
  const submit = useSubmit({
    money: true,
    checkWhere: 'submit.where.records',
    lookup: props.redeemed,
    onSettled: props.onDone,
  })
  const confirm = () =>
    submit.run(async (signal) => {
      await props.redeem(signal)
      showOutcome(t('savings.redeemed'))
    })
  return (
    <div className="form" data-testid="redeem-step">
      <p className="note">
        {toDecimal(product.redeemPenalty).isZero()
          ? t('savings.ruleNoPenalty')
          : t('savings.rulePenalty', { percent: percent(mul(product.redeemPenalty, 100)) })}
      </p>
      <p className="kv">
        <span>{t('savings.penalty')}</span>
        <span className="num" data-testid="redeem-penalty">
          {money(quote.penalty, holding.coin)} {COIN}
        </span>
      </p>
      <p className="kv">
        <span>{t('savings.receive')}</span>
        <span className="num" data-testid="redeem-receive">
          {money(quote.receive, holding.coin)} {COIN}
        </span>
      </p>
      <p className="kv">
        <span>{t('savings.arrives')}</span>
        <span className="phrase" data-testid="redeem-arrives">
          {product.settleHours === 0 ? t('savings.atOnce') : dateTime(quote.arrivesAt)}
        </span>
      </p>
      <SubmitNotice submit={submit} />
      <div className="button-row">
        <button type="button" className="button" onClick={props.onBack} disabled={submit.busy}>
          {t('withdrawal.back')}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void confirm()}
          disabled={submit.busy}
          data-testid="redeem-confirm"
        >
          {t('savings.confirmRedeem')}
        </button>
      </div>
    </div>
  )
}
