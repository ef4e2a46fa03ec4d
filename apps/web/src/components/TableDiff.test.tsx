// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render } from '@testing-library/react'
import { EMAILS_TABLE } from '../test/fixtures.ts'
import { TableDiff } from './TableDiff.tsx'

afterEach(cleanup)

const rowsByStatus = (container: HTMLElement) =>
  [...container.querySelectorAll('tbody tr')].map((tr) => [
    tr.getAttribute('data-status'),
    tr.querySelector('th')?.textContent,
  ])

describe('table diff', () => {
  it('[diff] marks added rows, changed cells and removed rows against prepare', () => {
    const { container } = render(<TableDiff table={EMAILS_TABLE} changedOnly={false} />)
    expect(rowsByStatus(container)).toEqual([
      ['same', '0'],
      ['changed', '~1'],
      ['added', '+2'],
      ['removed', '−3'],
    ])
    const changed = [...container.querySelectorAll('td.cell-changed')].map((td) => td.textContent)
    // old → new: the baseline value struck through, then the new one
    expect(changed).toEqual(['Re: budget → Re: budget (edited)'])
    expect(container.querySelector('td.cell-changed del.cell-was')?.textContent).toBe('Re: budget')
    expect(container.querySelector('tr.row-removed del')?.textContent).toBe('00000003')
    expect(container.textContent).toContain('+1 added · ~1 changed · −1 removed')
  })

  it('[diff] by default only rows that differ from prepare are listed', () => {
    const { container } = render(<TableDiff table={EMAILS_TABLE} changedOnly={true} />)
    expect(rowsByStatus(container).map(([status]) => status)).toEqual([
      'changed',
      'added',
      'removed',
    ])
  })

  it('[diff] an untouched table says so and draws no rows when only changes are shown', () => {
    const untouched = {
      ...EMAILS_TABLE,
      rows: EMAILS_TABLE.rows.map((r) => ({ ...r, status: 'same' as const, changed: [] })),
      removed: [],
    }
    const { container } = render(<TableDiff table={untouched} changedOnly={true} />)
    expect(container.textContent).toContain('unchanged since prepare')
    expect(container.querySelector('table')).toBeNull()
  })

  it('[tables-link] a changed row links to the step of the request that changed it; the baseline is named', () => {
    const onSeek = vi.fn()
    const untouched = {
      ...EMAILS_TABLE,
      rows: EMAILS_TABLE.rows.map((r) => ({ ...r, status: 'same' as const, changed: [] })),
      removed: [],
    }
    expect(
      render(<TableDiff table={untouched} changedOnly={true} baseline="the base tables" />)
        .container.textContent,
    ).toContain('unchanged since the base tables')
    cleanup()
    const { container } = render(
      <TableDiff
        table={EMAILS_TABLE}
        changedOnly={true}
        changedAt={{ '1': 42, '3': 40 }}
        onSeek={onSeek}
      />,
    )
    const links = [
      ...container.querySelectorAll<HTMLButtonElement>('[data-testid="row-changed-at"]'),
    ]
    expect(links.map((b) => b.textContent)).toEqual(['step 42', 'step 40'])
    fireEvent.click(links[0] as HTMLButtonElement)
    expect(onSeek).toHaveBeenCalledWith(42)
  })
})
