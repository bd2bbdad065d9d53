import type { BundleLanguage } from '@tradegate/shared'

// The one way the sandbox picks content by language: as the exchange does, it answers in the language the
// request names (its language header; "en-US" reads as en), and in English for a language it has no text in.

/** One text of each bundle language. */
export type InEveryLanguage<T> = Readonly<Record<BundleLanguage, T>>

/** A title and its body. */
export type Text = readonly [title: string, content: string]

/** The text in the request's language, else the English one. */
export function inLanguage<T>(texts: InEveryLanguage<T>, language: string | undefined): T {
  const code = (language ?? '').toLowerCase().split(/[-_]/)[0] ?? ''
  // own keys only: a header such as "constructor" must not pick up an Object member
  return Object.hasOwn(texts, code) ? texts[code as BundleLanguage] : texts.en
}
