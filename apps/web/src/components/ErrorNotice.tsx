import { ApiError } from '../api/client.ts'

/** A failed request, as a person reads it: what was being done, the contract code and message. */
export function ErrorNotice({
  what,
  error,
  onRetry,
}: {
  what: string
  error: Error
  onRetry?: () => void
}) {
  const code = error instanceof ApiError ? error.code : 'client_error'
  return (
    <div role="alert" className="notice notice-error">
      <strong>Could not {what}.</strong> <code className="error-code">{code}</code> {error.message}
      {onRetry && (
        <button type="button" className="link-button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  )
}
