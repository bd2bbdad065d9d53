import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// axe-core run inside the page: the accessibility rules a screen reader or keyboard user depends on.

// evaluated rather than added as a script tag, which the gateway's content security policy refuses
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  rule: string
  impact: string | null
  /** CSS selectors of the failing elements, a few at most */
  targets: string[]
}

declare const axe: {
  run(
    context: unknown,
    options: unknown,
  ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>
}

/**
 * The WCAG 2.1 A and AA and best-practice violations on the page as it is now, or within the element
 * `within` selects (e.g. an open modal dialog, all a user can reach while it is open: the page behind
 * it sits under a dimming backdrop).
 */
export async function axeViolations(page: Page, within = 'html'): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE)
  const { violations } = await page.evaluate(
    (context) =>
      axe.run(context, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        resultTypes: ['violations'],
      }),
    within,
  )
  return violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
  }))
}
