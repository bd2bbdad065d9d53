import { useRef, useState } from 'react'
import { ApiError } from './http'

/**
 * One order submission at a time: `submitting` drives the full-screen overlay, and a refused order
 * leaves its message in `error` while the form keeps what the user typed; `refresh` runs after each try.
 */
export function useOrderSubmit(refresh?: () => void) {
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const inFlight = useRef(false)
  const run = async (send: () => Promise<void>): Promise<boolean> => {
    if (inFlight.current) return false
    inFlight.current = true
    setSubmitting(true)
    setError(null)
    try {
      await send()
      return true
    } catch (caught) {
      if (caught instanceof ApiError && caught.reason !== 'aborted') setError(caught.message)
      return false
    } finally {
      inFlight.current = false
      setSubmitting(false)
      // balances and lists change whether the order went through or not
      refresh?.()
    }
  }
  return { submitting, error, run, clearError: () => setError(null) }
}
