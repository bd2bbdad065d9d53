// Id sequences, in a file of their own so the domain classes that number things need nothing from state.ts.

/** Sequential ids per kind of thing, starting at 1. */
export function idSequence(): () => number {
  let next = 1
  return () => next++
}
