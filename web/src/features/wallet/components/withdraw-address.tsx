import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { networkRule, type AddressEntry } from '@tradegate/shared'
import { Field } from '../../../components/form'

/** The address (and memo or tag, where the network takes one) with the address book's entries to pick. */
export function WithdrawAddressFields({
  network,
  address,
  memo,
  book,
  onAddress,
  onMemo,
  addressId,
  addressError,
  onAddressDone,
}: {
  addressId: string
  /** what is wrong with the address, tied to its field */
  addressError: string | null
  /** the user left the address field: its value may now be judged */
  onAddressDone: () => void
  network: string
  address: string
  memo: string
  book: readonly AddressEntry[]
  onAddress: (address: string) => void
  onMemo: (memo: string) => void
}) {
  const { t } = useTranslation()
  const rule = networkRule(network)
  const entries = book.filter((entry) => entry.network === network)
  const pick = (entry: AddressEntry) => {
    onAddress(entry.address)
    onMemo(entry.memo)
    onAddressDone()
  }
  return (
    <>
      <Field
        label={t('wallet.address')}
        name="address"
        id={addressId}
        error={addressError}
        onBlur={onAddressDone}
        value={address}
        onValueChange={(value) => onAddress(value.trim())}
        placeholder={rule?.example}
        autoComplete="off"
        spellCheck={false}
      />
      {entries.length > 0 && (
        <div className="chips" role="group" aria-label={t('withdrawal.addressBook')}>
          {entries.map((entry) => (
            <button
              key={entry.id}
              type="button"
              aria-pressed={entry.address === address && entry.memo === memo}
              onClick={() => pick(entry)}
              data-testid="book-entry"
              title={entry.address}
            >
              {entry.label} · {entry.address.slice(0, 6)}…{entry.address.slice(-4)}
            </button>
          ))}
        </div>
      )}
      {/* on its own line: at the end of the scrolling chips it sat past the screen's edge */}
      <p className="field-links">
        <Link href="/address-book" className="button button-text" data-testid="open-address-book">
          {entries.length ? t('withdrawal.manageBook') : t('withdrawal.addToBook')}
        </Link>
      </p>
      {rule?.memo && (
        <Field
          label={t(rule.memo.kind === 'tag' ? 'withdrawal.tag' : 'withdrawal.memo')}
          name="memo"
          value={memo}
          onValueChange={(value) => onMemo(value.trim())}
          inputMode={rule.memo.kind === 'tag' ? 'numeric' : 'text'}
          autoComplete="off"
          placeholder={rule.memo.required ? t('withdrawal.required') : t('withdrawal.optional')}
        />
      )}
      {rule?.memo?.required && <p className="note note-warning">{t('withdrawal.tagWarning', { network })}</p>}
    </>
  )
}
