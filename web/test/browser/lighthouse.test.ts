import { describe, expect, it } from 'vitest'
import { auditPages, PAGES } from '../lighthouse/audit'

// Accessibility, best practices and SEO are stable from run to run, so they are held at 100 here on
// every main page at both settings. Performance depends on the machine: `npm run lighthouse` reports it.

describe('lighthouse', () => {
  it('scores 100 for accessibility, best practices and SEO on every main page, phone and desktop', async () => {
    const results = await auditPages({
      formFactors: ['mobile', 'desktop'],
      categories: ['accessibility', 'best-practices', 'seo'],
    })
    expect(results).toHaveLength(PAGES.length * 2)
    const below = results.filter((result) => Object.values(result.scores).some((score) => score !== 100))
    expect(
      below.map(({ path, formFactor, scores, failing }) => ({ path, formFactor, scores, failing })),
    ).toEqual([])
  }, 600_000)
})
