import { DiffPage } from './pages/DiffPage.tsx'
import { GenerationCutDemoPage } from './pages/GenerationCutDemoPage.tsx'
import { HomePage } from './pages/HomePage.tsx'
import { NotFoundPage } from './pages/NotFoundPage.tsx'
import { RunPage } from './pages/RunPage.tsx'
import { StragglerDemoPage } from './pages/StragglerDemoPage.tsx'
import { ThemeToggle } from './components/ThemeToggle.tsx'
import { Link } from './router/Link.tsx'
import { useRoute } from './router/navigation.ts'
import type { InspectorView } from './router/route.ts'

/** The inspector's part of a run or demo route (without the page and its run). */
function inspectorView(route: InspectorView): InspectorView {
  const { step, tab, session, q, fold, message, present } = route
  return { step, tab, session, q, fold, message, present }
}

/** The shell: a header and the page the URL names. */
export function App() {
  const route = useRoute()
  const view = route.page === 'run' || route.page === 'straggler' ? inspectorView(route) : null
  return (
    <>
      <header className="app-head">
        <Link href="/" className="brand">
          <svg className="brand-mark" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
            <path
              d="M2 9h5M11 9h5M9 2v14"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              fill="none"
            />
          </svg>{' '}
          Cutover
        </Link>
        <span className="muted small">coordinated rollout checkpoints, step by step</span>
        <nav className="app-nav" aria-label="Main">
          <Link href="/" aria-current={route.page === 'home' ? 'page' : undefined}>
            Runs
          </Link>
          <Link
            href="/demo/straggler"
            aria-current={route.page === 'straggler' ? 'page' : undefined}
          >
            Straggler demo
          </Link>
          <Link
            href="/demo/generation-cut"
            aria-current={route.page === 'generation-cut' ? 'page' : undefined}
          >
            Generation-cut demo
          </Link>
        </nav>
        <ThemeToggle />
      </header>
      {route.page === 'home' && <HomePage />}
      {route.page === 'run' && <RunPage key={route.id} id={route.id} view={view ?? route} />}
      {route.page === 'straggler' && (
        <StragglerDemoPage key={route.run ?? ''} run={route.run} view={view ?? route} />
      )}
      {route.page === 'generation-cut' && (
        <GenerationCutDemoPage
          key={`${route.a ?? ''}|${route.b ?? ''}`}
          a={route.a}
          b={route.b}
          step={route.step}
        />
      )}
      {route.page === 'diff' && <DiffPage a={route.a} b={route.b} />}
      {route.page === 'not_found' && <NotFoundPage path={route.path} />}
    </>
  )
}
