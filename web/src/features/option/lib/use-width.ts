import { useCallback, useState } from 'react'

/**
 * The inline width of an element as it changes, for a layout that follows the room a component is
 * given rather than the window's: a ref to put on the element, and its width (null until measured).
 */
export function useWidth<T extends HTMLElement>(): [
  (element: T | null) => (() => void) | undefined,
  number | null,
] {
  const [width, setWidth] = useState<number | null>(null)
  const ref = useCallback((element: T | null) => {
    if (!element) return undefined
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width))
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}
