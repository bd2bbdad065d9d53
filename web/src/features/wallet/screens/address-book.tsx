import { useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { checkAddress, networkRule } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { Field, Form, SelectField, SubmitButton } from '../../../components/form'
import { useSubmit } from '../../../lib/submit'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { Screen } from '../../../components/screen'
import { showOutcome } from '../../../lib/toast'
import { focusElement } from '../../../lib/focus'
import { addToAddressBook, removeFromAddressBook, useAddressBook } from '../api/address-book'
import { useWithdrawChannels } from '../api/get-withdraw-channels'

/** Withdrawal addresses kept with a label, added and removed on their own, picked on the withdraw screen. */
export default function AddressBookScreen() {
  const { t } = useTranslation()
  const book = useAddressBook()
  const removal = useSubmit({ onSettled: () => void book.mutate() })
  // the entry whose removal is being asked about: a slip of the finger must not lose an address
  const [asking, setAsking] = useState<number | null>(null)
  const asked = book.data?.find((entry) => entry.id === asking)
  const remove = (id: number) =>
    removal.run(async (signal) => {
      await removeFromAddressBook(id, { signal })
      showOutcome(t('withdrawal.removed'))
      setAsking(null)
    })
  return (
    <Screen title={t('withdrawal.addressBook')}>
      <AddAddressForm onAdded={() => void book.mutate()} />
      <DataState {...book} isEmpty={(rows) => rows.length === 0}>
        {(rows) => (
          <ul className="list" data-testid="address-book">
            {rows.map((entry) => (
              <li className="list-row" key={entry.id} data-testid="address-entry">
                <span className="list-row-main">
                  <span className="list-row-title">
                    {entry.label} · {entry.network}
                  </span>
                  <span className="list-row-sub kv-long">
                    {entry.address}
                    {entry.memo ? ` · ${entry.memo}` : ''}
                  </span>
                </span>
                <button
                  type="button"
                  className="button button-text"
                  disabled={removal.busy}
                  onClick={() => setAsking(entry.id)}
                  aria-label={`${t('withdrawal.remove')} ${entry.label}`}
                >
                  {t('withdrawal.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </DataState>
      {asked && (
        <ConfirmDialog
          label={t('withdrawal.remove')}
          question={t('withdrawal.removeQuestion', { label: asked.label })}
          confirmLabel={t('withdrawal.remove')}
          busy={removal.busy}
          onConfirm={() => void remove(asked.id)}
          onBack={() => setAsking(null)}
          testId="address-remove-confirm"
        />
      )}
    </Screen>
  )
}

const BOOK_ADDRESS_ID = 'book-address'

function AddAddressForm({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation()
  const channels = useWithdrawChannels()
  const networks = [...new Set((channels.data ?? []).map((row) => row.rechargeType))]
  const [chosen, setChosen] = useState('')
  const network = chosen || networks[0] || ''
  const [label, setLabel] = useState('')
  const [address, setAddress] = useState('')
  const [memo, setMemo] = useState('')
  const rule = networkRule(network)
  // judged once the user leaves the field or submits, not at every letter
  const [addressChecked, setAddressChecked] = useState(false)
  const problem = address ? checkAddress(network, address, memo) : null
  const addressError = addressChecked && problem ? t(`errors.${problem}`, { network }) : null
  const submit = useSubmit({ onSettled: onAdded })
  const run = () => {
    if (problem) {
      setAddressChecked(true)
      focusElement(document.getElementById(BOOK_ADDRESS_ID))
      return
    }
    return submit.run(async (signal) => {
      await addToAddressBook({ network, address, label: label.trim(), ...(memo ? { memo } : {}) }, { signal })
      showOutcome(t('withdrawal.added'))
      setLabel('')
      setAddress('')
      setMemo('')
    })
  }
  return (
    <Form onSubmit={run} className="card form" data-testid="address-add">
      <SelectField
        label={t('withdrawal.network')}
        name="network"
        value={network}
        options={networks.map((value) => ({ value, label: value }))}
        onValueChange={(value) => {
          setChosen(value)
          setMemo('')
        }}
      />
      <Field
        label={t('withdrawal.label')}
        name="label"
        value={label}
        maxLength={30}
        onValueChange={setLabel}
      />
      <Field
        label={t('wallet.address')}
        name="address"
        id={BOOK_ADDRESS_ID}
        error={addressError}
        onBlur={() => setAddressChecked(true)}
        value={address}
        placeholder={rule?.example}
        spellCheck={false}
        autoComplete="off"
        onValueChange={(value) => setAddress(value.trim())}
      />
      {rule?.memo && (
        <Field
          label={t(rule.memo.kind === 'tag' ? 'withdrawal.tag' : 'withdrawal.memo')}
          name="memo"
          value={memo}
          onValueChange={(value) => setMemo(value.trim())}
        />
      )}
      <SubmitButton
        busy={submit.busy}
        disabled={!network || !label.trim() || !address}
        reason={
          !label.trim()
            ? `${t('withdrawal.label')}: ${t('withdrawal.required')}`
            : t('errors.invalidUsernameFor_address')
        }
      >
        {t('withdrawal.add')}
      </SubmitButton>
    </Form>
  )
}
