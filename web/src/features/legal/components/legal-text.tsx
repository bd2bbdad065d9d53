import { useTranslation } from '../../../lib/i18n'
import { Screen } from '../../../components/screen'

interface Section {
  heading: string
  body: string
}

/** A legal document whose sections live in the message bundles, so each language has its own text. */
export function LegalText({ title, sections }: { title: string; sections: string }) {
  const { t } = useTranslation()
  const list = t(sections, { returnObjects: true }) as Section[] | string
  return (
    <Screen title={title}>
      <article className="card article">
        {Array.isArray(list) &&
          list.map((section) => (
            <section key={section.heading}>
              <h2>{section.heading}</h2>
              <p>{section.body}</p>
            </section>
          ))}
      </article>
    </Screen>
  )
}
