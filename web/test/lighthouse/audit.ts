import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { chromium } from 'playwright-core'
import { ownTempDir } from '../../../gateway/test/support/owned-processes'
import { adoptChromium, CHROMIUM_ARGS, createFundedAccount, startStack } from '../browser/stack'
import { ownBlockingMs, type TraceEvent } from './own-blocking'

// Lighthouse against the built client served by the real gateway and sandbox, in Debian's Chromium.
// Signed-in pages are measured with a session prepared over HTTP: the token sits in the profile's
// local storage and Lighthouse is told not to reset storage.

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
export type Category = (typeof CATEGORIES)[number]
export type FormFactor = 'mobile' | 'desktop'

/** The signed-in trade page on spot (componentName 3) and on futures (2), as the app links to them. */
export const TRADE_SPOT = '/#/trade?id=1&componentName=3'
export const TRADE_FUTURES = '/#/trade?id=1&componentName=2'

export const PAGES = [
  { path: '/', signedIn: false },
  { path: '/#/login', signedIn: false },
  { path: '/#/store', signedIn: true },
  { path: TRADE_SPOT, signedIn: true },
  { path: '/#/wallet', signedIn: true },
] as const

export interface PageScores {
  path: string
  formFactor: FormFactor
  scores: Partial<Record<Category, number>>
  /** total blocking time, ms (performance runs only) */
  totalBlockingMs?: number
  /** the same sum over the time the main thread's tasks held a core, ms (own-blocking.ts) */
  ownBlockingMs?: number
  /** cumulative layout shift (performance runs only) */
  layoutShift?: number
  /** audits below a full score, by id, for the categories measured (performance aside) */
  failing: string[]
  /** why Lighthouse could not measure the page (its code, e.g. NO_NAVSTART: the trace was lost) */
  error?: string
}

export interface AuditOptions {
  formFactors: readonly FormFactor[]
  categories: readonly Category[]
  /** these signed-in paths instead of PAGES */
  paths?: readonly string[]
  /** a folder to write each page's full Lighthouse report to, as JSON, for a look at where the time went */
  reportDir?: string
}

export async function auditPages({
  formFactors,
  categories,
  paths,
  reportDir,
}: AuditOptions): Promise<PageScores[]> {
  const pages = paths ? paths.map((path) => ({ path, signedIn: true })) : PAGES
  const stack = await startStack()
  const profile = ownTempDir('tradegate-lighthouse-')
  const port = 9300 + Math.floor(Math.random() * 500)
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  })
  adoptChromium()
  const results: PageScores[] = []
  try {
    const token = await createFundedAccount(stack)
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto(stack.url)
    await page.evaluate(() => localStorage.setItem('_language', 'en'))
    for (const formFactor of formFactors) {
      for (const { path, signedIn } of pages) {
        await page.evaluate(
          ([satoken, on]) =>
            on ? localStorage.setItem('_token', satoken) : localStorage.removeItem('_token'),
          [token, signedIn] as const,
        )
        const runner = await lighthouse(
          `${stack.url}${path}`,
          { port, logLevel: 'error', onlyCategories: [...categories], disableStorageReset: true },
          formFactor === 'desktop' ? desktopConfig : undefined,
        )
        const lhr = runner?.lhr
        if (!lhr) throw new Error(`lighthouse returned nothing for ${path}`)
        if (reportDir) {
          mkdirSync(reportDir, { recursive: true })
          const name = `${formFactor}-${path.replace(/\W+/g, '_')}-${Date.now()}.json`
          writeFileSync(join(reportDir, name), JSON.stringify(lhr))
          writeFileSync(
            join(reportDir, name.replace(/json$/, 'trace.json')),
            JSON.stringify(runner.artifacts.Trace),
          )
        }
        const scores: PageScores['scores'] = {}
        const failing: string[] = []
        for (const category of categories) {
          const entry = lhr.categories[category]
          scores[category] = Math.round((entry?.score ?? 0) * 100)
          if (category === 'performance') continue
          for (const ref of entry?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id]
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.push(ref.id)
          }
        }
        const blocking = lhr.audits['total-blocking-time']?.numericValue
        const own =
          blocking === undefined
            ? undefined
            : ownBlockingMs(
                runner.artifacts.Trace.traceEvents as unknown as TraceEvent[],
                lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1,
              )
        const shift = lhr.audits['cumulative-layout-shift']?.numericValue
        results.push({
          path,
          formFactor,
          scores,
          failing,
          ...(blocking === undefined ? {} : { totalBlockingMs: Math.round(blocking) }),
          ...(own === undefined ? {} : { ownBlockingMs: own }),
          ...(shift === undefined ? {} : { layoutShift: shift }),
          ...(lhr.runtimeError ? { error: lhr.runtimeError.code } : {}),
        })
      }
    }
  } finally {
    await context.close()
    await stack.close()
    rmSync(profile, { recursive: true, force: true })
  }
  return results
}
