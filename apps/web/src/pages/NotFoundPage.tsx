import { Link } from '../router/Link.tsx'

/** An unknown path: say so and offer the way home. */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <main className="page">
      <h1>Not found</h1>
      <p>
        Nothing lives at <code>{path}</code>. <Link href="/">Back to the runs</Link>.
      </p>
    </main>
  )
}
