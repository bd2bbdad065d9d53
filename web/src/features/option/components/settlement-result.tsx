import { useTranslation } from '../../../lib/i18n'
import type { OptionPosition } from '@tradegate/shared'
import { useFormatters } from '../../../lib/use-formatters'

/** The latest option that settled while the page was open, and what it paid. */
export function SettlementResult({ position }: { position: OptionPosition }) {
  const { t } = useTranslation()
  const { price, cash, strike } = useFormatters()
  const paid = position.payout !== '0'
  return (
    <div
      className={`settlement ${paid ? 'up' : 'down'}`}
      role="status"
      data-testid="option-settlement"
      data-id={position.id}
    >
      <strong>{t('options.settled')}</strong>
      <span className="num">
        {position.coin.toUpperCase()} {t(`options.${position.kind}`)} {strike(position.strike)} ·{' '}
        {t('options.settlePrice')} {price(position.settlePrice)}
      </span>
      <span className="num settlement-profit">
        {t('options.payout')} {paid ? '+' : ''}
        {cash(position.payout)} USDT
      </span>
    </div>
  )
}
