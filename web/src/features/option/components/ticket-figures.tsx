import { useMemo } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { Decimal } from 'decimal.js'
import { OPTION_FEE_PERCENT, breakEven, toDecimal, type OptionChain } from '@tradegate/shared'
import { Figure } from '../../../components/form-bits'
import { useFormatters } from '../../../lib/use-formatters'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { availableOf } from '../../../lib/order-math'
import { bidOf, greekText, impliedOf, thetaPerUnit } from '../lib/option-math'
import type { useTicketPricing } from '../lib/use-ticket-pricing'
import type { OptionPick } from '../lib/chain-types'

/** A volatility fraction as a percent with two places, or -- where none gives the price. */
function useVolatilityText() {
  const { percent } = useFormatters()
  return (volatility: Decimal | null | undefined) =>
    volatility ? `${percent(volatility.times(100))}%` : '--'
}

/**
 * What buying the picked option costs before anything is sent: the ask and bid with their implied
 * volatilities, the premium, fee and total, break-even at expiry and the most the buyer can lose.
 */
export function TicketFigures({
  chain,
  pick,
  spot,
  pricing: { second, quote, cost, perUnit },
}: {
  chain: OptionChain
  pick: OptionPick
  spot: string | undefined
  pricing: ReturnType<typeof useTicketPricing>
}) {
  const { t } = useTranslation()
  const available = availableOf(useBalances().data, 'usdt', 'platform')
  const { price, cash, balance, decimal } = useFormatters()
  const volatilityText = useVolatilityText()
  // two searches a second for the picked option only; the chain shows the mark's volatility
  const implied = useMemo(() => impliedOf(pick, spot, chain, second), [pick, spot, chain, second])
  // theta per the unit that suits the time left: per minute in an option's last hour
  const theta = thetaPerUnit(quote?.theta ?? toDecimal(0), pick.expiresAt - second)
  const usdt = (value: Decimal | undefined) => (value ? `${cash(value)} USDT` : '--')
  const feeRule = chain.feeType === OPTION_FEE_PERCENT ? `${chain.feeValue}%` : `${chain.feeValue} USDT`
  return (
    <>
      <div className="figures">
        <Figure label={t('options.premiumPerUnit')} testId="ticket-premium">
          {usdt(quote?.premium)}
        </Figure>
        <Figure label={t('options.askIv')} testId="ticket-ask-iv">
          {volatilityText(implied?.ask)}
        </Figure>
        <Figure label={t('options.bidPerUnit')} testId="ticket-bid">
          {usdt(quote ? bidOf(quote) : undefined)}
        </Figure>
        <Figure label={t('options.bidIv')} testId="ticket-bid-iv">
          {volatilityText(implied?.bid)}
        </Figure>
        <Figure label={t('options.premiumTotal')}>{usdt(cost?.cost)}</Figure>
        <Figure label={`${t('options.fee')} · ${feeRule}`} testId="ticket-fee">
          {usdt(cost?.fee)}
        </Figure>
        <Figure label={t('options.totalCost')} testId="ticket-total">
          {usdt(cost?.total)}
        </Figure>
        <Figure label={t('options.breakEven')} testId="ticket-break-even">
          {perUnit ? price(breakEven(pick.kind, pick.strike, perUnit)) : '--'}
        </Figure>
        <Figure label={t('options.maxLoss')} testId="ticket-max-loss">
          {usdt(cost?.total)}
        </Figure>
        <Figure label={t('trade.available')}>{balance(available, 2)} USDT</Figure>
      </div>
      <div className="figures two-columns ticket-greeks" data-testid="ticket-greeks">
        {(['delta', 'gamma', 'theta', 'vega'] as const).map((greek) => (
          <Figure
            key={greek}
            label={t(greek === 'theta' ? `options.thetaPer_${theta.unit}` : `options.${greek}`)}
            testId={`ticket-${greek}`}
          >
            {quote ? decimal(greekText(greek === 'theta' ? theta.value : quote[greek], greek)) : '--'}
          </Figure>
        ))}
      </div>
    </>
  )
}
