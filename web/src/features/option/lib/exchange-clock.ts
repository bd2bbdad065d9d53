import { useEffect, useState } from 'react'

// Expiries are in exchange time; this page's clock may differ from it, so every countdown and every
// premium uses this page's time corrected by the difference the last chain answer showed.

let offsetMs = 0

/** Records the exchange time of an answer that has just arrived. */
export function noteExchangeTime(exchangeNow: number): void {
  offsetMs = exchangeNow - Date.now()
}

export function exchangeNow(): number {
  return Date.now() + offsetMs
}

/** Exchange time, read again every `everyMs`. */
export function useExchangeNow(everyMs = 1000): number {
  const [now, setNow] = useState(exchangeNow)
  useEffect(() => {
    const timer = setInterval(() => setNow(exchangeNow()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
