import './lib/zodWithoutEval.ts' // first: before any contract schema is built
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App } from './App.tsx'
import { applyTheme, storedTheme } from './components/ThemeToggle.tsx'
import './styles.css'

// the theme chosen last time, before the first paint (none: prefers-color-scheme decides)
applyTheme(storedTheme())

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 5_000 } } })

const root = document.getElementById('root')
if (!root) throw new Error('missing #root')
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
