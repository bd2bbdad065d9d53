import { RowText } from '../../../components/data-list'
import { CheckIcon } from '../../../components/icons'
import { Screen } from '../../../components/screen'
import { focusScreenHeading } from '../../../lib/focus'
import { showToast } from '../../../lib/toast'
import { selectableLanguages, setLanguage, useTranslation } from '../../../lib/i18n'
import { useSettings } from '../../../lib/settings'
import { TimeZonePicker } from '../components/time-zone-picker'

/** The languages offered, and the time zone; a choice applies at once and the screen stays. */
export default function LangListScreen() {
  const { t, i18n } = useTranslation()
  const settings = useSettings()
  // the user stays here: focus goes to this screen's heading, now in the new language, and the
  // change is read out in it (the list's own rows no longer say which one is chosen until revisited)
  const choose = async (code: string, label: string, languageId: number) => {
    await setLanguage(code, { languageId })
    focusScreenHeading()
    showToast(i18n.t('language.changed', { language: label }))
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
                onClick={() => void choose(entry.dictValue, entry.dictLabel, index)}
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
