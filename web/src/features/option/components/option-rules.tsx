import { useEffect } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { OPTION_RULE_KEYS } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { useOptionRules } from '../api/get-option-rules'

/** Every option rule the exchange publishes, in full. */
export function OptionRules() {
  const { t, i18n } = useTranslation()
  const rules = useOptionRules(OPTION_RULE_KEYS.option)
  const { mutate } = rules
  // the rules come in the language of the request, so a change of language reads them again
  useEffect(() => {
    void mutate()
  }, [i18n.language, mutate])
  return (
    <section className="panel option-rules" aria-label={t('option.rules')}>
      <h2 className="panel-title">{t('option.rules')}</h2>
      <DataState {...rules} isEmpty={(list) => list.length === 0}>
        {(list) => (
          <div className="rules" data-testid="option-rules">
            {list.map((article) => (
              <article key={article.id}>
                <h3>{article.title}</h3>
                <p>{article.content}</p>
              </article>
            ))}
          </div>
        )}
      </DataState>
    </section>
  )
}
