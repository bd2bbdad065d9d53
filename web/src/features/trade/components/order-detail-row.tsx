import { useTranslation } from '../../../lib/i18n'
import { useFormatters } from '../../../lib/use-formatters'

/**
 * The phone's line under an order row (the desktop shows the same figures as columns): its time
 * and, for a past order, what it traded for and its fee.
 */
export function OrderDetailRow({
  colSpan,
  createdAt,
  past,
}: {
  colSpan: number
  createdAt: number
  past?: { total: string; fee: string }
}) {
  const { t } = useTranslation()
  const { dateTime } = useFormatters()
  return (
    <tr className="order-detail mobile-only" data-testid="order-detail">
      <td colSpan={colSpan} className="muted">
        <span className="order-detail-line">
          <span className="phrase">{dateTime(createdAt)}</span>
          {past && (
            <>
              {' · '}
              {t('desk.total')} <span className="num">{past.total}</span> · {t('trade.fee')}{' '}
              <span className="num">{past.fee}</span>
            </>
          )}
        </span>
      </td>
    </tr>
  )
}

/** The desktop's columns of a past order, which the phone shows in OrderDetailRow: its total and fee. */
export function PastOrderCells({ total, fee }: { total: string; fee: string }) {
  return (
    <>
      <td className="num desktop-only" data-testid="order-total">
        {total}
      </td>
      <td className="num desktop-only" data-testid="order-fee">
        {fee}
      </td>
    </>
  )
}
