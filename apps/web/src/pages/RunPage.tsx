import { isDirectoryRunId } from '../api/directoryQueries.ts'
import { CompareWith } from '../components/CompareWith.tsx'
import { DirectoryInspector } from '../components/DirectoryInspector.tsx'
import { RunInspector } from '../components/RunInspector.tsx'
import { go } from '../router/navigation.ts'
import type { InspectorView } from '../router/route.ts'

/** `/runs/:id?step=n&tab=…&session=…`: the inspector, its view kept in the URL. */
export function RunPage({ id, view }: { id: string; view: InspectorView }) {
  return (
    <main className="page run-page">
      {isDirectoryRunId(id) ? (
        <DirectoryInspector
          runId={id}
          view={view}
          onView={(next) => go({ page: 'run', id, ...next }, { replace: true })}
        />
      ) : (
        <RunInspector
          runId={id}
          view={view}
          onView={(next, options) => go({ page: 'run', id, ...next }, options)}
          actions={<CompareWith runId={id} />}
          openAtStory
        />
      )}
    </main>
  )
}
