import { describe, expect, it } from 'vitest'
import { auditPages, PAGES } from '../lighthouse/audit'

// Accessibility, best practices and SEO are stable from run to run, so they are held at 100 here on
// every main page at Lighthouse's mobile settings, the stricter ones for font size and image
// resolution. Desktop is left to `npm run lighthouse`, which reports all four scores at both settings:
// a second round of five page loads cost `npm test` about as much as the first, and at desktop size
// axe already checks every screen (screens.test.ts), names and alt text included. What only a desktop
// audit would see (an image stretched in a desktop-only panel) is `npm run lighthouse`'s to find.
// Performance depends on the machine and is reported only there.

describe('lighthouse', () => {
  it('scores 100 for accessibility, best practices and SEO on every main page at mobile settings', async () => {
    const results = await auditPages({
      formFactors: ['mobile'],
      categories: ['accessibility', 'best-practices', 'seo'],
    })
    expect(results).toHaveLength(PAGES.length)
    const below = results.filter((result) => Object.values(result.scores).some((score) => score !== 100))
    expect(
      below.map(({ path, formFactor, scores, failing }) => ({ path, formFactor, scores, failing })),
    ).toEqual([])
  }, 600_000)
})
