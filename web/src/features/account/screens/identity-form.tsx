import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'wouter'
import { Field, Form, SubmitButton, useSubmit } from '../../../components/form'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { uploadKyc } from '../api/upload-kyc'

/** Primary or advanced verification (by route): name, document number and a document photo. */
export default function IdentityFormScreen() {
  const { t } = useTranslation()
  const [location, navigate] = useLocation()
  const level = location === '/advanced' ? 'advanced' : 'primary'
  const [realName, setRealName] = useState('')
  const [idNumber, setIdNumber] = useState('')
  const [document, setDocument] = useState<File | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const { busy, run } = useSubmit(async () => {
    setProgress(0)
    try {
      await uploadKyc({ level, realName: realName.trim(), idNumber: idNumber.trim() }, document, setProgress)
      showToast(t('account.kycSubmitted'))
      navigate('/userauth')
    } finally {
      setProgress(null)
    }
  })
  return (
    <Screen title={t(`menu.${level}`)}>
      <Form onSubmit={run}>
        <Field label={t('account.realName')} name="realName" value={realName} onValueChange={setRealName} />
        <Field label={t('account.idNumber')} name="idNumber" value={idNumber} onValueChange={setIdNumber} />
        <Field
          label={t('account.document')}
          name="document"
          type="file"
          accept="image/*"
          onChange={(event) => setDocument(event.target.files?.[0] ?? null)}
        />
        {progress !== null && (
          <div
            className="progress"
            role="progressbar"
            aria-valuenow={progress}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <span style={{ width: `${progress}%` }} />
          </div>
        )}
        <SubmitButton busy={busy} disabled={!realName || !idNumber}>
          {t('common.submit')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
