import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { OptionPosition } from '@tradegate/shared'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { OrderError } from '../../../components/form-bits'
import { SubmitNotice } from '../../../components/submit-notice'
import { useBalances } from '../../../lib/api/get-asset-balance'
import { useSubmit } from '../../../lib/submit'
import { showOutcome } from '../../../lib/toast'
import { useFormatters } from '../../../lib/use-formatters'
import { sellOption } from '../api/sell-option'
import { findOptionSold } from '../api/find-option-actions'

/**
 * Selling an open position back before expiry at the bid, after the user confirms what it pays. The
 * sale carries a floor (the bid after a small move against the holder), so a bid that falls further
 * while the request travels is refused instead of filled.
 */
export function SellPosition({
  position,
  net,
  floor,
  onSold,
}: {
  position: OptionPosition
  /** what the sale pays now after its fee, or null while there is no price */
  net: string | null
  floor: string | null
  onSold: () => void
}) {
  const { t } = useTranslation()
  const { cash } = useFormatters()
  const balances = useBalances()
  const [confirming, setConfirming] = useState(false)
  const flow = useSubmit({
    money: true,
    checkWhere: 'submit.where.positions',
    onSettled: () => {
      void balances.mutate()
      onSold()
    },
    lookup: () => findOptionSold(position.id),
  })
  const sell = () =>
    void flow.run(async (signal) => {
      await sellOption({ id: position.id, minPrice: floor ?? '0' }, { signal })
      showOutcome(t('options.sold'))
      setConfirming(false)
    })
  return (
    <div className="option-sell">
      <button
        type="button"
        className="button button-small"
        disabled={!net || !floor}
        aria-haspopup="dialog"
        onClick={() => setConfirming(true)}
        data-testid="option-sell"
      >
        {t('options.sell')}
      </button>
      {confirming ? (
        <ConfirmDialog
          label={t('options.sell')}
          question={t('options.sellQuestion', { amount: net ? cash(net) : '--' })}
          busy={flow.busy}
          onConfirm={sell}
          onBack={() => setConfirming(false)}
          testId="option-sell-confirm"
        >
          <OrderError message={flow.error} />
          <SubmitNotice submit={flow} />
        </ConfirmDialog>
      ) : (
        <>
          <OrderError message={flow.error} />
          <SubmitNotice submit={flow} />
        </>
      )}
    </div>
  )
}
