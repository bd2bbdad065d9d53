import type { ChildProcess } from 'node:child_process'

/** Keeps the last `chars` characters a child writes to stdout and stderr, for the error when it fails. */
export function keepOutputTail(child: ChildProcess, chars = 4000): () => string {
  let tail = ''
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString()).slice(-chars)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return () => tail
}
