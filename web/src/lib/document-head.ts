import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'

// The tab title names the screen, and the description speaks the reader's language, so a bookmark,
// the history list and a search result all say what the page is.

/** Sets the document title to the screen's title and the brand; back to the brand alone on leaving. */
export function usePageTitle(title: unknown): void {
  const { t } = useTranslation()
  const brand = t('brand')
  const text = typeof title === 'string' && title.trim() ? title.trim() : ''
  useEffect(() => {
    document.title = text ? `${text} · ${brand}` : brand
    return () => {
      document.title = brand
    }
  }, [text, brand])
}

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
