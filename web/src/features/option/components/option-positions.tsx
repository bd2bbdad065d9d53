import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import type { OptionPosition } from '@tradegate/shared'
import type { useOptionPositions } from '../api/get-option-positions'
import { TabList } from '../../../components/tab-list'
import { PositionCard } from './option-position-card'

type Status = OptionPosition['status']

/**
 * Open positions with their live mark, P&L, time to expiry and a sale at the bid; closed ones with
 * how they ended (sold back before expiry or settled at it) and what that paid.
 */
export function OptionPositions({
  now,
  positions,
}: {
  now: number
  positions: Record<Status, OptionPositionsState>
}) {
  const { t } = useTranslation()
  const [status, setStatus] = useState<Status>('open')
  const rows = positions[status].data?.rows ?? []
  const refresh = () => {
    void positions.open.mutate()
    void positions.settled.mutate()
  }
  return (
    <section className="panel option-positions" aria-label={t('options.positions')}>
      <TabList
        className="panel-tabs"
        label={t('options.positions')}
        items={(['open', 'settled'] as const).map((tab) => ({
          value: tab,
          label: t(`options.positions_${tab}`),
          data: { 'data-testid': 'positions-tab', 'data-status': tab },
        }))}
        value={status}
        onChange={setStatus}
      />
      {rows.length === 0 ? (
        <p className="muted empty-line">{t(`options.noPositions_${status}`)}</p>
      ) : (
        <div className="option-position-list">
          {rows.map((position) => (
            <PositionCard key={position.id} position={position} now={now} onSold={refresh} />
          ))}
        </div>
      )}
    </section>
  )
}

export type OptionPositionsState = ReturnType<typeof useOptionPositions>
