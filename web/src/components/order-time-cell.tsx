import { useFormatters } from '../lib/use-formatters'

/**
 * An order's time as a desktop table's first cell: the day, then the time with its zone. The two wrap
 * onto two lines only when the table needs the room, so a history's last columns stay in view.
 */
export function OrderTimeCell({ ms }: { ms: number }) {
  const { dayAndTime } = useFormatters()
  const [day, time] = dayAndTime(ms)
  return (
    <td className="phrase muted desktop-only wraps">
      <span className="nowrap">{day}</span> <span className="nowrap">{time}</span>
    </td>
  )
}
