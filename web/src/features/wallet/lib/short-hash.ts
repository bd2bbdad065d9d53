/** Characters kept at each end of a shortened hash: enough to tell two transactions apart at a glance. */
const HEAD = 6
const TAIL = 4

/** A transaction hash cut to its ends (0x1a2b3c…9f3e), so it fits one phone row; the copy keeps all of it. */
export function shortHash(hash: string): string {
  return hash.length <= HEAD + TAIL + 1 ? hash : `${hash.slice(0, HEAD)}…${hash.slice(-TAIL)}`
}
