import { useEffect, useId, useRef, type ReactNode } from 'react'

// A modal on the native <dialog>: the browser keeps focus inside it, Escape closes it, and focus
// returns to what opened it.

export interface DialogProps {
  open: boolean
  onClose: () => void
  title: ReactNode
  children: ReactNode
  testId?: string
}

export function Dialog({ open, onClose, title, children, testId }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      data-testid={testId}
    >
      {open && (
        <>
          <h2 className="dialog-title" id={titleId}>
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  )
}
