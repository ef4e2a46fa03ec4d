import { NewRunForm } from '../components/NewRunForm.tsx'
import { OpenDirectoryForm } from '../components/OpenDirectoryForm.tsx'
import { RunList } from '../components/RunList.tsx'
import { ScenarioGallery } from '../components/ScenarioGallery.tsx'
import { Link } from '../router/Link.tsx'

/** `/`: the scenario gallery, a form for a custom run, and the runs so far. */
export function HomePage() {
  return (
    <main className="page home">
      <section aria-labelledby="gallery-title">
        <div className="section-head">
          <h2 id="gallery-title">Scenarios</h2>
          <span className="section-links">
            <Link href="/demo/straggler" className="button-link">
              Straggler demo →
            </Link>{' '}
            <Link href="/demo/generation-cut" className="button-link">
              Generation-cut demo →
            </Link>
          </span>
        </div>
        <ScenarioGallery />
      </section>
      <section aria-labelledby="new-run-title">
        <h2 id="new-run-title">New run</h2>
        <NewRunForm />
      </section>
      <section aria-labelledby="open-directory-title">
        <h2 id="open-directory-title">Open a checkpoint directory</h2>
        <OpenDirectoryForm />
      </section>
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        <RunList />
      </section>
    </main>
  )
}
