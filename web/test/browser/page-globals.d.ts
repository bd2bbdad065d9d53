// The few page globals the predicates passed to page.waitForFunction read; they run in Chromium, not in
// Node. The DOM library is left out of this project because it clashes with the gateway's Node types.

interface PageNode {
  textContent: string | null
  id: string
  parentElement: PageNode | null
  getAttribute(name: string): string | null
  closest(selector: string): PageNode | null
  matches(selector: string): boolean
}

declare const window: {
  location: { hash: string }
  scrollY: number
  scrollTo(x: number, y: number): void
  /** Intl formatters a page made, counted by decimal-symbols.test.ts */
  intlMade?: string[]
}
declare const document: {
  documentElement: { lang: string; dir: string; scrollHeight: number }
  title: string
  body: PageNode
  activeElement: PageNode | null
  getElementById(id: string): PageNode | null
  querySelector(selector: string): PageNode | null
  querySelectorAll(selector: string): Iterable<PageNode> & ArrayLike<PageNode>
}
declare const localStorage: {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}
interface PageServiceWorker {
  state: string
}
declare const navigator: {
  serviceWorker: {
    controller: PageServiceWorker | null
    getRegistration(): Promise<
      | {
          active: PageServiceWorker | null
          waiting: PageServiceWorker | null
          update(): Promise<unknown>
        }
      | undefined
    >
  }
}
declare const caches: { open(name: string): Promise<{ keys(): Promise<readonly unknown[]> }> }
