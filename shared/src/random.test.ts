import { describe, expect, it } from 'vitest'
import { deriveSeed, seededRandom } from './random'

describe('seededRandom', () => {
  it('gives the mulberry32 sequence, so seeds recorded with bench figures still reproduce them', () => {
    const { next } = seededRandom(42)
    expect([next(), next(), next()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099])
  })

  it('repeats for one seed and differs between seeds and derived names', () => {
    const take = (seed: number) => {
      const random = seededRandom(seed)
      return Array.from({ length: 5 }, () => random.next())
    }
    expect(take(7)).toEqual(take(7))
    expect(take(7)).not.toEqual(take(8))
    expect(deriveSeed(7, 'walk')).not.toBe(deriveSeed(7, 'book'))
    for (const value of take(9)) expect(value >= 0 && value < 1).toBe(true)
  })
})
