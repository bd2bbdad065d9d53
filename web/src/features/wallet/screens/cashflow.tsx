import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { RECORD_KINDS, precisionText, type FinancialRecord, type RecordKind } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { ListRow } from '../../../components/data-list'
import { NoData } from '../../../components/no-data'
import { Screen } from '../../../components/screen'
import { formatDateTime } from '../../../lib/intl'
import { useFormatters } from '../../../lib/use-formatters'
import { useFinancialRecords } from '../api/get-financial-records'
import { downloadText, toCsv } from '../lib/csv'

/** The download's name carries the moment of export, so several exports do not overwrite each other. */
function exportFileName(timeZone: string): string {
  return `cashflow-${formatDateTime(Date.now(), timeZone, 'YYYYMMDD-HHmmss')}.csv`
}

const PERIODS = ['all', 'today', 'week', 'month', 'custom'] as const
type Period = (typeof PERIODS)[number]
const DAY_MS = 86_400_000
/** How many days back from today each fixed period starts (today counts as the first). */
const PERIOD_DAYS: Partial<Record<Period, number>> = { today: 1, week: 7, month: 30 }

/**
 * Every balance movement, one line each, filtered by type and date and exported as shown. Dates are
 * picked as named periods in the page's language; the browser's own date fields, which write dates
 * in the browser's language rather than the page's, appear only for chosen dates.
 */
export default function CashflowScreen() {
  const { t } = useTranslation()
  const { money, dateTime, timeZone, precisionOf } = useFormatters()
  const [kind, setKind] = useState<RecordKind | ''>('')
  const [period, setPeriod] = useState<Period>('all')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const records = useFinancialRecords(kind)
  // days are the settings' time zone days, written YYYY-MM-DD like the date inputs
  const dayOf = (record: FinancialRecord) => formatDateTime(record.createdAt, timeZone, 'YYYY-MM-DD')
  const choosePeriod = (value: Period) => {
    setPeriod(value)
    const days = PERIOD_DAYS[value]
    setFrom(days ? formatDateTime(Date.now() - (days - 1) * DAY_MS, timeZone, 'YYYY-MM-DD') : '')
    setTo('')
  }
  const shown = (records.data?.rows ?? []).filter(
    (record) => (!from || dayOf(record) >= from) && (!to || dayOf(record) <= to),
  )
  const signed = (record: FinancialRecord) =>
    `${record.amount.startsWith('-') ? '' : '+'}${money(record.amount, record.coin)}`
  const exportShown = () => {
    const header = [
      t('money.cashflow.time'),
      t('money.cashflow.type'),
      t('money.cashflow.account'),
      t('money.cashflow.coin'),
      t('wallet.amount'),
      t('money.cashflow.balanceAfter'),
    ]
    const lines = shown.map((record) => [
      dateTime(record.createdAt),
      t(`money.kinds.${record.kind}`),
      t(`wallet.accounts.${record.account}`),
      record.coin.toUpperCase(),
      // at the coin's places as the screen shows them (not the ledger's raw digits), with a point
      // for any spreadsheet to read
      precisionText(record.amount, precisionOf(record.coin)),
      precisionText(record.balanceAfter, precisionOf(record.coin)),
    ])
    downloadText(exportFileName(timeZone), toCsv([header, ...lines]))
  }
  return (
    <Screen title={t('wallet.cashflow')}>
      <div className="filters" data-testid="cashflow-filters">
        <label style={{ gridColumn: '1 / -1' }}>
          <span className="muted">{t('money.cashflow.type')}</span>
          <select
            name="kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as RecordKind | '')}
          >
            <option value="">{t('money.cashflow.allTypes')}</option>
            {RECORD_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(`money.kinds.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label style={{ gridColumn: '1 / -1' }}>
          <span className="muted">{t('money.cashflow.period')}</span>
          <select
            name="period"
            value={period}
            onChange={(event) => choosePeriod(event.target.value as Period)}
          >
            {PERIODS.map((value) => (
              <option key={value} value={value}>
                {t(`money.cashflow.periods.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {period === 'custom' && (
        <div className="filters" data-testid="cashflow-dates">
          <label>
            <span className="muted">{t('money.cashflow.from')}</span>
            <input
              type="date"
              name="from"
              value={from}
              max={to || undefined}
              onChange={(event) => setFrom(event.target.value)}
            />
          </label>
          <label>
            <span className="muted">{t('money.cashflow.to')}</span>
            <input
              type="date"
              name="to"
              value={to}
              min={from || undefined}
              onChange={(event) => setTo(event.target.value)}
            />
          </label>
        </div>
      )}
      <button
        type="button"
        className="button"
        onClick={exportShown}
        disabled={shown.length === 0}
        data-testid="cashflow-export"
      >
        {t('money.cashflow.export', { count: shown.length })}
      </button>
      <DataState {...records}>
        {() =>
          shown.length === 0 ? (
            <NoData />
          ) : (
            <ul className="list" data-testid="cashflow">
              {shown.map((record) => (
                <ListRow
                  key={record.id}
                  title={t(`money.kinds.${record.kind}`)}
                  sub={`${t(`wallet.accounts.${record.account}`)} · ${dateTime(record.createdAt)}`}
                  end={
                    <span className="list-row-main list-row-end-text">
                      <span
                        className={`list-row-title num ${record.amount.startsWith('-') ? 'down' : 'up'}`}
                        data-testid="record-amount"
                      >
                        {signed(record)} {record.coin.toUpperCase()}
                      </span>
                      <span className="list-row-sub">
                        {t('money.cashflow.balanceAfter')}{' '}
                        <span className="num">{money(record.balanceAfter, record.coin)}</span>
                      </span>
                    </span>
                  }
                />
              ))}
            </ul>
          )
        }
      </DataState>
    </Screen>
  )
}
