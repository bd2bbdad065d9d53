import { useTranslation } from '../../../lib/i18n'
import { useFormatters } from '../../../lib/use-formatters'
import type { ReactNode } from 'react'
import { BackAndConfirm } from '../../../components/back-and-confirm'
import { Dialog } from '../../../components/dialog'

export interface WithdrawDraft {
  coin: string
  network: string
  address: string
  memo: string
  amount: string
  fee: string
  receive: string
}

/** The last look before money leaves, as a dialog: amount, fee, amount received, network and address. */
export function WithdrawConfirm({
  draft,
  busy,
  onConfirm,
  onBack,
  children,
}: {
  draft: WithdrawDraft
  /** what became of the submission, shown inside while it is open */
  children?: ReactNode
  busy: boolean
  onConfirm: () => void
  onBack: () => void
}) {
  const { t } = useTranslation()
  const { money } = useFormatters()
  const COIN = draft.coin.toUpperCase()
  const rows: Array<[string, string, string]> = [
    [t('withdrawal.amount'), `${money(draft.amount, draft.coin)} ${COIN}`, 'confirm-amount'],
    [t('money.withdraw.fee'), `${money(draft.fee, draft.coin)} ${COIN}`, 'confirm-fee'],
    [t('money.withdraw.receive'), `${money(draft.receive, draft.coin)} ${COIN}`, 'confirm-receive'],
    [t('withdrawal.network'), draft.network, 'confirm-network'],
    [t('wallet.address'), draft.address, 'confirm-address'],
  ]
  if (draft.memo) rows.push([t('withdrawal.memo'), draft.memo, 'confirm-memo'])
  return (
    <Dialog title={t('withdrawal.confirmTitle')} onClose={onBack} busy={busy} testId="withdraw-confirm">
      {rows.map(([label, value, testId]) => (
        <p className="kv" key={testId}>
          <span>{label}</span>
          <span className="num kv-long" data-testid={testId}>
            {value}
          </span>
        </p>
      ))}
      <p className="note">{t('withdrawal.checkNetwork', { network: draft.network })}</p>
      <BackAndConfirm
        confirmLabel={t('withdrawal.confirm')}
        busy={busy}
        onBack={onBack}
        onConfirm={onConfirm}
        testId="withdraw-confirm-submit"
      />
      {children}
    </Dialog>
  )
}
