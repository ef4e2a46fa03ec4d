import type { RunView } from '@cutover/core/contracts'
import { ApiError } from '../api/client.ts'
import { useCreateRun } from '../api/useCreateRun.ts'
import { rerunConfig } from '../lib/rerunConfig.ts'
import { navigate } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'

/**
 * A stored run this build cannot reproduce (`run_diverged`, 409): says at which step, and offers
 * "Re-run with this build" — a new run with the same config, opened in its place. Renders nothing
 * for any other error.
 */
export function DivergedNotice({ run, error }: { run: RunView; error: Error | null }) {
  const rerun = useCreateRun()
  const start = () =>
    rerun.mutate(rerunConfig(run, run.faults), {
      onSuccess: (created) => navigate(`/runs/${created.id}`),
    })
  if (!(error instanceof ApiError) || error.code !== 'run_diverged') return null
  return (
    <div role="alert" className="notice notice-error diverged-notice" data-testid="run-diverged">
      <strong>This run was stored by another build.</strong> {error.message}{' '}
      <button type="button" onClick={start} disabled={rerun.isPending}>
        {rerun.isPending ? 'Starting…' : 'Re-run with this build'}
      </button>
      {rerun.isError && <ErrorNotice what="start the new run" error={rerun.error} />}
    </div>
  )
}
