import type { Page } from 'playwright-core'

// Every message added to the page's always-present polite region, in order. Before the app has drawn
// the region (a page not yet loaded), the script waits for it and takes what it already holds.
const LISTEN = `(() => {
  if (window.heardPolitely) return
  const heard = (window.heardPolitely = [])
  const take = (node) => { if (node.textContent) heard.push(node.textContent) }
  const listen = (region) => {
    for (const node of region.childNodes) take(node)
    new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) take(node)
    }).observe(region, { childList: true })
  }
  const find = () => document.querySelector('[data-testid=live-toasts]')
  if (find()) return listen(find())
  const waiting = new MutationObserver(() => {
    if (!find()) return
    waiting.disconnect()
    listen(find())
  })
  waiting.observe(document, { childList: true, subtree: true })
})()`

/**
 * Starts listening to the page's polite region, on the page as it stands and on every page it loads
 * next; the returned function gives every message the loaded page has read out since, in order (a
 * message replaced by the same text counts once more).
 *
 * A message stays on screen for a toast's time only, and a busy machine may look after it has gone
 * or before a slow answer brings it: that it was read out is the property, not what stands now.
 */
export async function heardPolitely(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(LISTEN)
  if (page.url() !== 'about:blank') await page.evaluate(LISTEN)
  return () => page.evaluate<string[]>('[...(window.heardPolitely ?? [])]')
}
