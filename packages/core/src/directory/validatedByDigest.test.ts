import { describe, expect, it } from 'vitest'
import { forgetValidatedReads, validatedByDigest } from './validatedByDigest.ts'

describe('validatedByDigest', () => {
  it('[directory] parses identical bytes once per parser; failures are never kept', () => {
    const parser = {}
    const other = {}
    let calls = 0
    const parse = (ok: boolean) => () => (
      calls++,
      ok ? { ok: true as const, value: { n: calls } } : { ok: false as const }
    )
    const first = validatedByDigest(parser, 'aa', parse(true))
    expect(validatedByDigest(parser, 'aa', parse(true))).toBe(first)
    expect(calls).toBe(1)
    validatedByDigest(other, 'aa', parse(true))
    expect(calls).toBe(2)
    expect(validatedByDigest(parser, 'bb', parse(false)).ok).toBe(false)
    expect(validatedByDigest(parser, 'bb', parse(false)).ok).toBe(false)
    expect(calls).toBe(4)
  })

  it('[directory] forgetValidatedReads drops every kept parse: the next read parses again', () => {
    const parser = {}
    let calls = 0
    const parse = () => (calls++, { ok: true as const, value: calls })
    validatedByDigest(parser, 'cc', parse)
    validatedByDigest(parser, 'cc', parse)
    expect(calls).toBe(1)
    forgetValidatedReads()
    expect(validatedByDigest(parser, 'cc', parse)).toEqual({ ok: true, value: 2 })
  })
})
