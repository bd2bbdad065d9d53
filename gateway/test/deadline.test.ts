import { describe, expect, it } from 'vitest'
import { withDeadline } from '../src/lib/deadline'

// Every wait on Redis or the upstream that must not hold a request or a refresh goes through one
// deadline: the answer when it comes first, a clear error when it does not, and a failure as itself.

describe('withDeadline', () => {
  it('gives the answer that comes first', async () => {
    expect(await withDeadline(Promise.resolve('answer'), 1000)).toBe('answer')
  })

  it('rejects, naming the wait, when no answer comes in time', async () => {
    await expect(withDeadline(new Promise(() => {}), 5)).rejects.toThrow('no answer in 5 ms')
  })

  it('passes a failure on as it is', async () => {
    await expect(withDeadline(Promise.reject(new Error('refused')), 1000)).rejects.toThrow('refused')
  })
})
