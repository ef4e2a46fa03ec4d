// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { sessionRows } from '../test/fixtures.ts'
import { SessionsTable } from './SessionsTable.tsx'

afterEach(cleanup)

describe('sessions table', () => {
  it('[virtualised] 10,000 sessions put only the visible rows (plus a small overscan) in the DOM', () => {
    render(
      <SessionsTable rows={sessionRows(10_000)} selected={null} onSelect={() => {}} height={360} />,
    )
    const drawn = screen.getAllByRole('row').length - 1 // minus the header row
    // 360 px / 30 px = 12 visible rows, + 1 partial, + 6 overscan below
    expect(drawn).toBeGreaterThanOrEqual(12)
    expect(drawn).toBeLessThanOrEqual(12 + 1 + 2 * 6)
    expect(screen.getByText('10000 sessions')).toBeTruthy()
  })

  it('[virtualised] scrolling draws the rows at the new offset and drops the ones above', () => {
    const { container } = render(
      <SessionsTable rows={sessionRows(10_000)} selected={null} onSelect={() => {}} height={360} />,
    )
    const box = container.querySelector('.vlist') as HTMLElement
    box.scrollTop = 30 * 5_000
    fireEvent.scroll(box)
    const keys = [...container.querySelectorAll('[data-session]')].map((el) =>
      el.getAttribute('data-session'),
    )
    expect(keys).toContain('r5000.a0')
    expect(keys).not.toContain('r0000.a0')
    expect(keys.length).toBeLessThanOrEqual(25)
  })

  it('[sort] clicking a header sorts by that column, again reverses it', () => {
    render(
      <SessionsTable rows={sessionRows(30)} selected={null} onSelect={() => {}} height={2000} />,
    )
    fireEvent.click(screen.getByRole('button', { name: /Revision/ }))
    const revisions = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[4]?.textContent)
    expect(revisions().slice(0, 3)).toEqual(['0', '0', '0'])
    fireEvent.click(screen.getByRole('button', { name: /Revision/ }))
    expect(revisions().slice(0, 3)).toEqual(['4', '4', '4'])
    expect(screen.getByRole('columnheader', { name: /Revision/ }).getAttribute('aria-sort')).toBe(
      'descending',
    )
  })

  it('[filter] the filter keeps only matching rows and says how many of how many', () => {
    render(
      <SessionsTable rows={sessionRows(30)} selected={null} onSelect={() => {}} height={2000} />,
    )
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter sessions' }), {
      target: { value: 'retired' },
    })
    const rows = screen.getAllByRole('row').slice(1)
    expect(rows).toHaveLength(5) // r00, r07, r14, r21, r28
    expect(screen.getByText('5 of 30 sessions')).toBeTruthy()
  })

  it('[select] clicking a row or pressing Enter on it selects that session', () => {
    const onSelect = vi.fn()
    render(<SessionsTable rows={sessionRows(5)} selected={null} onSelect={onSelect} height={300} />)
    fireEvent.click(screen.getByText('r3'))
    expect(onSelect).toHaveBeenLastCalledWith('r3.a0')
    fireEvent.keyDown(screen.getByText('r1').closest('[role="row"]') as HTMLElement, {
      key: 'Enter',
    })
    expect(onSelect).toHaveBeenLastCalledWith('r1.a0')
  })
})
