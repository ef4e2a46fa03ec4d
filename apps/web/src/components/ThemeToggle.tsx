import { useEffect, useState } from 'react'

export type Theme = 'light' | 'dark'

const STORAGE_KEY = 'cutover-theme'

/** The theme chosen with the toggle on this browser, or null (follow `prefers-color-scheme`). */
export function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY)
    return value === 'light' || value === 'dark' ? value : null
  } catch {
    return null
  }
}

/** Puts the chosen theme on `<html data-theme>` (none: the system's colour scheme decides). */
export function applyTheme(theme: Theme | null): void {
  if (theme === null) document.documentElement.removeAttribute('data-theme')
  else document.documentElement.setAttribute('data-theme', theme)
}

const systemDark = () => window.matchMedia?.('(prefers-color-scheme: dark)').matches === true

/**
 * The dark mode switch in the header: it starts from `prefers-color-scheme` (or the last choice
 * made here) and overrides it, remembered in localStorage.
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(
    () => storedTheme() ?? (systemDark() ? 'dark' : 'light'),
  )
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)')
    if (!media) return
    const follow = () => {
      if (storedTheme() === null) setTheme(media.matches ? 'dark' : 'light')
    }
    media.addEventListener('change', follow)
    return () => media.removeEventListener('change', follow)
  }, [])
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark'
    setTheme(next)
    applyTheme(next)
    try {
      window.localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // private mode: the choice lasts for this page only
    }
  }
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="theme-toggle"
      aria-pressed={theme === 'dark'}
      title="Dark mode"
      onClick={toggle}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
      <span className="visually-hidden"> mode</span>
    </button>
  )
}
