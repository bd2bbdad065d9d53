import { LRUCache } from 'lru-cache'

// An LRU cache bounded by its number of entries whose storage grows with what it holds. lru-cache's
// `max` allocates its key, value, link and (with a TTL) time arrays for every slot up front: the session
// registry's 100,000 ended tokens and 50,000 known ones alone held about 6 MiB of an idle gateway's
// heap. Bounded by `maxSize` with each entry counting 1, the same limit and the same least-recently-used
// eviction (and `dispose`) apply, and an instance pays only for the entries it has.

export type GrowingLruOptions<K extends NonNullable<unknown>, V extends NonNullable<unknown>> = Omit<
  LRUCache.Options<K, V, unknown>,
  'max' | 'maxSize' | 'sizeCalculation' | 'maxEntrySize'
>

export function growingLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  entries: number,
  options: GrowingLruOptions<K, V> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 } as LRUCache.Options<
    K,
    V,
    unknown
  >)
}
