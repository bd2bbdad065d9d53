import { useEffect, useRef, useState } from 'react'
import type { ExchangeQuote } from '@tradegate/shared'
import { callApi } from '../../../lib/http'

// A flash-exchange quote that renews itself: when its time is up (or it was used or refused) a new one is asked.

export interface HeldQuote {
  quote: ExchangeQuote
  /** browser time the quote stops holding: counted from when it was asked, so never later than the server's */
  deadline: number
}

export interface QuoteState {
  held: HeldQuote | null
  error: unknown
  /** whole seconds left, for the timer */
  secondsLeft: number
  /** drops the current quote and asks for a new one, e.g. after it was used or the server refused it */
  renew: () => void
}

const TICK_MS = 250

interface Answer {
  /** the request the answer belongs to: from, to and round */
  key: string
  held: HeldQuote | null
  error: unknown
}

export function useExchangeQuote(from: string, to: string): QuoteState {
  const [round, setRound] = useState(0)
  const [answer, setAnswer] = useState<Answer | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const deadline = useRef<number | null>(null)
  const key = `${from}|${to}|${round}`

  useEffect(() => {
    let current = true
    const askedAt = Date.now()
    deadline.current = null
    callApi('exchangeQuote', { query: { from, to } }, { quiet: true }).then(
      (quote) => {
        if (!current) return
        const held = { quote, deadline: askedAt + quote.validSeconds * 1000 }
        deadline.current = held.deadline
        setAnswer({ key, held, error: null })
      },
      (error: unknown) => {
        if (current) setAnswer({ key, held: null, error })
      },
    )
    return () => {
      current = false
    }
  }, [from, to, key])

  // one clock for the timer and the renewal: past the deadline the next quote is asked at once
  useEffect(() => {
    const timer = setInterval(() => {
      const time = Date.now()
      setNow(time)
      if (deadline.current !== null && time >= deadline.current) {
        deadline.current = null
        setRound((value) => value + 1)
      }
    }, TICK_MS)
    return () => clearInterval(timer)
  }, [])

  const mine = answer?.key === key ? answer : null
  const held = mine?.held && now < mine.held.deadline ? mine.held : null
  return {
    held,
    error: mine?.error ?? null,
    // the clock may have ticked just before the quote was asked: never more than the quote's own seconds
    secondsLeft: held
      ? Math.min(held.quote.validSeconds, Math.max(0, Math.ceil((held.deadline - now) / 1000)))
      : 0,
    renew: () => setRound((value) => value + 1),
  }
}
