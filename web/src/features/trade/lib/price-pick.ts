import { useEffect, useEffectEvent } from 'react'

// A price tapped in the order book reaches the order form of the same pair.

type Listener = (price: string) => void
const listeners = new Map<string, Set<Listener>>()

export function pickPrice(symbol: string, price: string): void {
  for (const listener of listeners.get(symbol) ?? []) listener(price)
}

/** Runs `onPick` with every price tapped in the book of `symbol`. */
export function usePickedPrice(symbol: string, onPick: Listener): void {
  const handle = useEffectEvent(onPick)
  useEffect(() => {
    let set = listeners.get(symbol)
    if (!set) listeners.set(symbol, (set = new Set()))
    const listener: Listener = (price) => handle(price)
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0) listeners.delete(symbol)
    }
  }, [symbol])
}
