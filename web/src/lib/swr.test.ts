import { createElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { SWRConfig, type Key, type Middleware } from 'swr'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { callApi } from './http'
import { i18n, setLanguage } from './i18n'
import { swrConfig, useCall } from './swr'

// The shared SWR setup's keys: the language is part of every call's key, and its fetcher sends that
// language, so a switch of language fetches the content the upstream answers per language again.

interface Seen {
  key: Key
  fetcher: ((key: unknown) => unknown) | null
}

let seen: Seen[] = []
/** Runs after the shared middleware and records the key and fetcher it hands on. */
const recorder: Middleware = (useSWRNext) => (key, fetcher, config) => {
  seen.push({ key, fetcher: fetcher as Seen['fetcher'] })
  return useSWRNext(key, fetcher, config)
}

function HelpList(): ReactNode {
  useCall('helpList')
  return null
}

/** Renders a screen's call with the app's SWR setup, and returns the key it was cached under. */
function renderedKey(): unknown[] {
  seen = []
  const use = [...(swrConfig.use ?? []), recorder]
  renderToString(createElement(SWRConfig, { value: { ...swrConfig, use } }, createElement(HelpList)))
  expect(seen).toHaveLength(1)
  return seen[0]!.key as unknown[]
}

beforeAll(async () => {
  await setLanguage('en', { save: false })
})

afterEach(async () => {
  vi.unstubAllGlobals()
  await setLanguage('en', { save: false })
})

describe('SWR keys', () => {
  it('carry the language, and the fetcher sends it', async () => {
    const english = renderedKey()
    expect(english.at(-1)).toBe('en')
    await setLanguage('ja', { save: false })
    const japanese = renderedKey()
    expect(japanese.at(-1)).toBe('ja')
    expect(japanese.slice(0, -1)).toEqual(english.slice(0, -1))

    const sent: Array<{ url: string; headers: Record<string, string> }> = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        sent.push({ url, headers: init.headers as Record<string, string> })
        return new Response(JSON.stringify({ code: 200, msg: 'ok', data: [] }), { status: 200 })
      }),
    )
    await seen[0]!.fetcher!(japanese)
    expect(sent).toEqual([{ url: '/api/help/list', headers: expect.objectContaining({ language: 'ja' }) }])
  })

  it('a call the switch sets off sends the new language in both headers', async () => {
    const sent: Array<Record<string, string>> = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(init.headers as Record<string, string>)
        return new Response(JSON.stringify({ code: 200, msg: 'ok', data: [] }), { status: 200 })
      }),
    )
    // as a screen re-rendered by the switch fetches at once, before setLanguage has returned
    const calls: Array<Promise<unknown>> = []
    const fetchOnSwitch = () => calls.push(callApi('helpList'))
    i18n.on('languageChanged', fetchOnSwitch)
    try {
      await setLanguage('ar', { save: false })
    } finally {
      i18n.off('languageChanged', fetchOnSwitch)
    }
    await Promise.all(calls)
    expect(sent).toEqual([expect.objectContaining({ language: 'ar', lang: 'ar' })])
  })
})
