import { useEffect } from 'react'
import { useTranslation } from './i18n'

// The description speaks the reader's language, so a search result says what the page is. (The tab
// title is React's own <title>, rendered by the top bar.)
//
// Why an effect rather than rendering <meta name="description"> as React 19 allows: React appends a
// rendered <meta> after the one index.html holds for pages read without JavaScript, so a page would
// carry two descriptions, the static English one first. Updating the existing element keeps one.

/** Keeps `<meta name="description">` in the current language. */
export function useDescription(): void {
  const { t, i18n } = useTranslation()
  const description = t('meta.description')
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]')
    if (!meta) {
      meta = document.createElement('meta')
      meta.name = 'description'
      document.head.append(meta)
    }
    meta.content = description
  }, [description, i18n.language])
}
