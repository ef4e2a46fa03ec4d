import { describe, expect, it } from 'vitest'
import { measureRecordBench } from './measureRecordBench.ts'

describe('cutover bench --record', () => {
  it('[record.crash-safe] reports the added latency and the throughput on both paths, and the closed recording holds every call the proxy carried', async () => {
    const f = await measureRecordBench({ calls: 20, concurrency: 4, seconds: 1 })
    expect(f.record_calls).toBe(20)
    expect(f.record_latency_direct_ms_median).toBeGreaterThan(0)
    expect(f.record_latency_proxy_ms_median).toBeGreaterThan(0)
    expect(Number.isFinite(f.record_added_latency_ms_median)).toBe(true)
    expect(f.record_responses_per_s_direct).toBeGreaterThan(0)
    expect(f.record_responses_per_s_proxy).toBeGreaterThan(0)
    expect(f.record_exchanges_recorded).toBe(f.record_proxy_requests)
    expect(f.record_proxy_requests).toBeGreaterThan(120)
  }, 120_000)
})
