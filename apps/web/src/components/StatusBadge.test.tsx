// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { StatusBadge } from './StatusBadge.tsx'

afterEach(cleanup)

describe('status badge', () => {
  it('[bounded] a run waiting for a simulation slot shows as queued with its place', () => {
    render(<StatusBadge status="running" queuePosition={2} />)
    expect(screen.getByText('queued #2')).toBeTruthy()
    cleanup()
    render(<StatusBadge status="running" />)
    expect(screen.getByText('running')).toBeTruthy()
  })
})
