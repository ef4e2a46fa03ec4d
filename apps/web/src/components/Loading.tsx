/** A quiet loading line that keeps the space it will be replaced by (no layout jump). */
export function Loading({ what, minHeight }: { what: string; minHeight?: number }) {
  return (
    <p
      className="notice notice-loading"
      aria-busy="true"
      style={minHeight ? { minHeight } : undefined}
    >
      Loading {what}…
    </p>
  )
}
