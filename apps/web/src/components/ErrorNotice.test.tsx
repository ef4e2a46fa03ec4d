// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { ApiError } from '../api/client.ts'
import { ErrorNotice } from './ErrorNotice.tsx'

afterEach(cleanup)

describe('error notice', () => {
  it('[bounded] a 429 or 507 refusal shows its code and the limit it names', () => {
    const busy = new ApiError(
      429,
      'too_many_runs',
      '2 runs are simulating and 16 waiting, the limits (CUTOVER_MAX_SIMULATIONS=2, CUTOVER_MAX_QUEUED_RUNS=16); try again when one finishes',
    )
    render(<ErrorNotice what="start the run" error={busy} />)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Could not start the run.')
    expect(alert.textContent).toContain('too_many_runs')
    expect(alert.textContent).toContain('CUTOVER_MAX_SIMULATIONS=2')
    cleanup()
    render(
      <ErrorNotice
        what="start the run"
        error={
          new ApiError(
            507,
            'data_dir_full',
            'the data directory holds 500 runs, its limit (CUTOVER_MAX_RUNS=500); delete runs to make room',
          )
        }
      />,
    )
    expect(screen.getByRole('alert').textContent).toContain('data_dir_full')
    expect(screen.getByRole('alert').textContent).toContain('delete runs to make room')
  })
})
