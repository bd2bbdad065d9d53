import { useTranslation } from 'react-i18next'
import { useLocation } from 'wouter'
import { RowText } from '../../../components/data-list'
import { CheckIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { goBackOr } from '../../../lib/hash-location'
import { selectableLanguages, setLanguage } from '../../../lib/i18n'
import { useSettings } from '../../../lib/settings'
import { TimeZonePicker } from '../components/time-zone-picker'

export default function LangListScreen() {
  const { t, i18n } = useTranslation()
  const [, navigate] = useLocation()
  const settings = useSettings()
  const choose = async (code: string, languageId: number) => {
    await setLanguage(code, { languageId })
    goBackOr(navigate)
  }
  return (
    <Screen title={t('language.title')}>
      <TimeZonePicker />
      <ul className="list lang-list">
        {selectableLanguages(settings.LANGUAGES).map((entry, index) => {
          const current = i18n.language === entry.dictValue
          return (
            <li key={entry.dictValue}>
              <button
                type="button"
                className="list-row"
                aria-current={current}
                onClick={() => void choose(entry.dictValue, index)}
                data-lang={entry.dictValue}
              >
                <RowText title={entry.dictLabel} sub={entry.dictValue} />
                {current && <CheckIcon />}
              </button>
            </li>
          )
        })}
      </ul>
    </Screen>
  )
}
