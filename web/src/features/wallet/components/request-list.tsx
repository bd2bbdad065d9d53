import { useTranslation } from '../../../lib/i18n'
import type { MoneyRequest } from '@tradegate/shared'
import { DataList, ListRow } from '../../../components/data-list'
import { CopyIcon } from '../../../components/icons'
import { copyText } from '../../../lib/clipboard'
import { useFormatters } from '../../../lib/use-formatters'
import { shortHash } from '../lib/short-hash'

/** Deposit or withdrawal requests with their state, network and transaction, newest first. */
export function RequestList({
  source,
  testId,
}: {
  source: {
    data: { rows: readonly MoneyRequest[] } | undefined
    error: unknown
    isLoading: boolean
    mutate?: () => unknown
  }
  testId?: string
}) {
  const { t } = useTranslation()
  const { money, dateTime } = useFormatters()
  return (
    <DataList source={source} testId={testId}>
      {(row) => (
        <ListRow
          key={row.id}
          title={`${money(row.amount, row.coin)} ${row.coin.toUpperCase()}`}
          titleClassName="num"
          sub={
            <>
              <span className="phrase">{dateTime(row.createdAt)}</span>
              {row.chain && (
                <span className="tag" data-testid="request-network">
                  {row.chain}
                </span>
              )}
              {row.txHash && <TransactionHash hash={row.txHash} />}
            </>
          }
          subClassName="request-meta"
          end={<span className="tag">{t(`wallet.status.${row.status}`)}</span>}
        />
      )}
    </DataList>
  )
}

/** The shortened hash with a button that copies all of it. */
function TransactionHash({ hash }: { hash: string }) {
  const { t } = useTranslation()
  return (
    <span className="tx-hash" data-testid="request-tx">
      <span title={hash}>
        {t('money.tx')} <span className="num">{shortHash(hash)}</span>
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={t('money.copyTx')}
        onClick={() => copyText(hash)}
        data-testid="copy-tx"
      >
        <CopyIcon size={16} />
      </button>
    </span>
  )
}
