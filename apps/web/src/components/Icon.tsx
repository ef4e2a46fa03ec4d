/** The transport icons, drawn in SVG so they look the same whatever fonts the machine has. */
const PATHS = {
  first: 'M3 2h2v12H3zM14 2v12L6 8z',
  back: 'M12 2v12L4 8z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
  forward: 'M4 2v12l8-6z',
  last: 'M11 2h2v12h-2zM2 2v12l8-6z',
} as const

/** A 16×16 icon that inherits the text colour. */
export function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      className="icon"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  )
}
