import { useToasts } from '../lib/toast'

export function Toaster() {
  const toasts = useToasts()
  if (toasts.length === 0) return null
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role="status" data-testid="toast">
          {toast.kind === 'loading' && <span className="spinner spinner-small" />}
          {toast.text}
        </div>
      ))}
    </div>
  )
}
