// The few browser globals the lib modules touch, for unit tests in Node (jsdom is not installed).

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value))
  }
}

const windowTarget = new EventTarget()
const reloads: number[] = []

Object.assign(globalThis, {
  localStorage: new MemoryStorage(),
  sessionStorage: new MemoryStorage(),
  window: Object.assign(windowTarget, {
    location: {
      protocol: 'http:',
      host: 'localhost:8080',
      href: 'http://localhost:8080/',
      reload: () => reloads.push(Date.now()),
    },
  }),
  // an event target, as SWR listens for visibility changes as soon as it is imported
  document: Object.assign(new EventTarget(), {
    documentElement: { lang: 'en', dir: 'ltr', dataset: {} },
    visibilityState: 'visible',
  }),
})

/** Times window.location.reload was called, for tests of the token-expiry rule. */
export function reloadCalls(): number {
  return reloads.length
}
