import { describe, expect, it } from 'vitest'
import { growingLru } from '../src/lib/growing-lru'

// The session registry, the user resolver and the response cache keep their entries in these: the bound
// and the eviction order must be lru-cache's `max`, whatever the storage does underneath.

describe('a growing LRU cache', () => {
  it('holds at most its bound, evicting the least recently used and telling dispose', () => {
    const disposed: string[] = []
    const cache = growingLru<string, number>(3, {
      dispose: (_value, key, reason) => disposed.push(`${key}:${reason}`),
    })
    cache.set('a', 1).set('b', 2).set('c', 3)
    expect(cache.get('a')).toBe(1) // a is now the most recent; b the least
    cache.set('d', 4)
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd'])
    expect(cache.size).toBe(3)
    expect(disposed).toEqual(['b:evict'])
    // one step to the side: replacing an entry does not count twice against the bound
    cache.set('d', 5)
    expect(cache.size).toBe(3)
    expect(cache.get('c')).toBe(3)
  })

  it('keeps the same bound far past a small start, as a long-lived instance fills it', () => {
    const cache = growingLru<number, number>(1000)
    for (let key = 0; key < 5000; key++) cache.set(key, key)
    expect(cache.size).toBe(1000)
    expect(cache.has(3999)).toBe(false)
    expect(cache.has(4000)).toBe(true)
    expect(cache.get(4999)).toBe(4999)
  })
})
