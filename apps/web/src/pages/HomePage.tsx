import { useState } from 'react'
import { NewRunForm } from '../components/NewRunForm.tsx'
import { OpenDirectoryForm } from '../components/OpenDirectoryForm.tsx'
import { RunList } from '../components/RunList.tsx'
import { ScenarioGallery } from '../components/ScenarioGallery.tsx'
import { Link } from '../router/Link.tsx'

/**
 * `/`: the runs list first (newest first, filters and search), the scenario gallery one click
 * away, then the forms for a custom run and for a checkpoint directory.
 */
export function HomePage() {
  const [gallery, setGallery] = useState(false)
  return (
    <main className="page home">
      <section aria-labelledby="runs-title">
        <div className="section-head">
          <h1 id="runs-title">Runs</h1>
          <span className="section-links">
            <button
              type="button"
              aria-expanded={gallery}
              aria-controls="scenario-gallery"
              onClick={() => setGallery(!gallery)}
            >
              {gallery ? 'Hide the scenario gallery' : 'Scenario gallery'}
            </button>{' '}
            <a className="button-link" href="#new-run-title">
              New run…
            </a>{' '}
            <Link href="/demo/straggler" className="button-link">
              Straggler demo →
            </Link>{' '}
            <Link href="/demo/generation-cut" className="button-link">
              Generation-cut demo →
            </Link>
          </span>
        </div>
        {gallery && (
          <div id="scenario-gallery" className="gallery-panel">
            <h2 className="visually-hidden">Scenarios</h2>
            <ScenarioGallery />
          </div>
        )}
        <RunList />
      </section>
      <section aria-labelledby="new-run-title">
        <h2 id="new-run-title">New run</h2>
        <NewRunForm />
      </section>
      <section aria-labelledby="open-directory-title">
        <h2 id="open-directory-title">Open a checkpoint directory</h2>
        <OpenDirectoryForm />
      </section>
    </main>
  )
}
