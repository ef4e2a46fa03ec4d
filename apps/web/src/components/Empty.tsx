import type { ReactNode } from 'react'

/** An empty state that says why there is nothing and, where useful, what to do. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="notice notice-empty">{children}</p>
}
