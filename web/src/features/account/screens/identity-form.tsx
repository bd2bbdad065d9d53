import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'wouter'
import { LIMITS } from '@tradegate/shared'
import { Field, FileField, Form, SubmitButton } from '../../../components/form'
import { SubmitNotice } from '../../../components/submit-notice'
import { useSubmit } from '../../../lib/submit'
import { Screen } from '../../../components/screen'
import { showToast } from '../../../lib/toast'
import { useAccountInfo } from '../../../lib/api/get-info'
import { uploadKyc } from '../api/upload-kyc'
import { PhotoRefused, preparePhoto } from '../lib/prepare-photo'

const LIMIT_MB = LIMITS.uploadMaxBytes / (1024 * 1024)

/** Primary or advanced verification (by route): name, document number and a document photo. */
export default function IdentityFormScreen() {
  const { t } = useTranslation()
  const [location, navigate] = useLocation()
  const info = useAccountInfo()
  const level = location === '/advanced' ? 'advanced' : 'primary'
  const [realName, setRealName] = useState('')
  const [idNumber, setIdNumber] = useState('')
  const [document, setDocument] = useState<File | null>(null)
  const [stage, setStage] = useState<'idle' | 'preparing' | 'uploading'>('idle')
  const [progress, setProgress] = useState(0)
  const refusalText = (problem: PhotoRefused['problem']) =>
    problem === 'fileTooLarge' ? t('money.identity.tooLarge', { limit: LIMIT_MB }) : t(`errors.${problem}`)
  const submit = useSubmit({ checkWhere: 'submit.where.account' })
  const run = () =>
    submit.run(async () => {
      try {
        setStage('preparing')
        const photo = document ? await preparePhoto(document) : null
        setProgress(0)
        setStage('uploading')
        await uploadKyc({ level, realName: realName.trim(), idNumber: idNumber.trim() }, photo, setProgress)
        showToast(t('account.kycSubmitted'))
        void info.mutate()
        navigate('/userauth')
      } catch (error) {
        if (error instanceof PhotoRefused) showToast(refusalText(error.problem))
        else throw error
      } finally {
        setStage('idle')
      }
    })
  return (
    <Screen title={t(`menu.${level}`)}>
      <Form onSubmit={run}>
        <Field label={t('account.realName')} name="realName" value={realName} onValueChange={setRealName} />
        <Field label={t('account.idNumber')} name="idNumber" value={idNumber} onValueChange={setIdNumber} />
        <FileField
          label={t('account.document')}
          choose={t('account.choosePhoto')}
          none={t('account.noPhotoChosen')}
          name="document"
          accept="image/*"
          file={document}
          onFile={setDocument}
        />
        <p className="muted">{t('money.identity.photoRule', { limit: LIMIT_MB })}</p>
        {stage === 'preparing' && <p className="muted">{t('money.identity.preparing')}</p>}
        {stage === 'uploading' && (
          <div className="upload-progress">
            <div
              className="progress"
              role="progressbar"
              aria-valuenow={progress}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <span style={{ width: `${progress}%` }} />
            </div>
            <span className="num" data-testid="upload-percent">
              {progress}%
            </span>
          </div>
        )}
        <SubmitNotice submit={submit} />
        <SubmitButton busy={submit.busy} disabled={!realName || !idNumber}>
          {t('common.submit')}
        </SubmitButton>
      </Form>
    </Screen>
  )
}
