import { useEffect, useRef, useState } from 'react'

/** How often premiums follow the live price. */
export const SPOT_SAMPLE_MS = 500

/**
 * The latest `value`, taken at most once every `everyMs`. Premiums are worked out in decimal.js, which
 * is too slow to redo for a whole chain on every tick of the feed; twice a second still reads as live.
 */
export function useSampled<T>(value: T, everyMs: number): T {
  const [sampled, setSampled] = useState(value)
  const latest = useRef(value)
  useEffect(() => {
    latest.current = value
  })
  useEffect(() => {
    const timer = setInterval(() => setSampled(latest.current), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return sampled
}
