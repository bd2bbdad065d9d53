import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RESYNC_SPACING_MS, isUserStateKey, spaced } from './resync'

describe('isUserStateKey', () => {
  it.each([
    [['assetBalance', {}, 0], true],
    [['spotOrderList', { query: { symbol: 'btcusdt' } }, 3], true],
    [['optionPositions', {}, 1], true],
    [['secondOrderList', { body: { pageNum: 1, pageSize: 20 } }, 0], true],
    [['getAllSetting', {}, 0], false],
    [['getCoinList', {}, 0], false],
    [['noSuchCall', {}, 0], false],
    ['assetBalance', false],
    [null, false],
  ])('%j: %s', (key, expected) => {
    expect(isUserStateKey(key)).toBe(expected)
  })
})

describe('spaced', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('runs at once, then once at the end of a window however many calls it had', () => {
    const run = vi.fn()
    const call = spaced(run, RESYNC_SPACING_MS)
    call()
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(100)
    call()
    vi.advanceTimersByTime(400)
    call()
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(RESYNC_SPACING_MS - 500)
    expect(run).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(RESYNC_SPACING_MS * 3)
    expect(run).toHaveBeenCalledTimes(2)
    call()
    expect(run).toHaveBeenCalledTimes(3)
  })
})
