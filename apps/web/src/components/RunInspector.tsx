import { useEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  InvariantFailure,
  KeyMoment,
  PhaseBand,
  StepView,
  TraceEvent,
  TracePhase,
} from '@cutover/core/contracts'
import { bugsQuery, runQuery, stepQuery, timelineWarmQuery } from '../api/queries.ts'
import { useFilteredEvents } from '../api/useRangeEvents.ts'
import { useRunSummary } from '../api/useRunSummary.ts'
import { useRerun } from '../api/useRerun.ts'
import { narrate } from '../lib/narrate.ts'
import { keyMoments, openingStep } from '../lib/keyMoments.ts'
import { phaseStarts } from '../lib/phaseStarts.ts'
import { StoryNav } from './StoryNav.tsx'
import { stickyDiagram } from '../lib/stickyDiagram.ts'
import type { DrawnDiagram } from '../lib/stickyDiagram.ts'
import { viewSearch } from '../router/route.ts'
import type { InspectorView, Tab } from '../router/route.ts'
import { isTypingTarget } from '../lib/stepKey.ts'
import { Empty } from './Empty.tsx'
import { DivergedNotice } from './DivergedNotice.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { EventsTab } from './EventsTab.tsx'
import { ExportBar } from './ExportBar.tsx'
import { InjectFault } from './InjectFault.tsx'
import { InvariantsTab } from './InvariantsTab.tsx'
import { LineageTab } from './LineageTab.tsx'
import { Loading } from './Loading.tsx'
import { MessagePanel } from './MessagePanel.tsx'
import { ManifestsTab } from './ManifestsTab.tsx'
import { MermaidDiagram, preloadMermaid } from './MermaidDiagram.tsx'
import { ParticipantCards } from './ParticipantCards.tsx'
import { PhaseToggles } from './PhaseToggles.tsx'
import { RecordedChecksTab } from './RecordedChecksTab.tsx'
import { RecordedDirectories } from './RecordedDirectories.tsx'
import { RecordedExchange } from './RecordedExchange.tsx'
import { RecordedRunHeader } from './RecordedRunHeader.tsx'
import { RunHeader } from './RunHeader.tsx'
import { SessionsTab } from './SessionsTab.tsx'
import { TablesTab } from './TablesTab.tsx'
import { TimelineTab } from './TimelineTab.tsx'
import { Tabs } from './Tabs.tsx'
import { TransportBar } from './TransportBar.tsx'
import { usePlayback } from './usePlayback.ts'
import { useStepKeys } from './useStepKeys.ts'

/**
 * How often a running run's view is asked again (its status; the summary follows the edge faster).
 */
const RUN_POLL_MS = 1_000
const NO_BANDS: readonly PhaseBand[] = []
/**
 * A running run's filtered reads (a rollout's events, the directory writes, the Events tab's
 * matches) follow its edge in steps of this many events.
 */
const FILTER_EDGE_EVERY = 2_000
const NO_MOMENTS: readonly KeyMoment[] = []

/**
 * The inspector of one run at one step: transport (scrubber, step buttons, play), the diagram,
 * participant cards and the tabs. The view (step, tab, session) is owned by the URL; `step: null`
 * follows the live edge while the run streams, any explicit step freezes the view there.
 * `aside` adds a column beside the diagram (the straggler demo's narrative); while the payload
 * panel takes that column, the panel shows it.
 */
export function RunInspector({
  runId,
  view,
  onView,
  aside,
  actions,
  openAtStory = false,
}: {
  runId: string
  view: InspectorView
  onView: (view: InspectorView, options?: { replace?: boolean }) => void
  aside?: (step: StepView | undefined) => ReactNode
  /** Controls beside the export bar (the run page's "Compare with…"). */
  actions?: ReactNode
  /**
   * A finished run whose URL names no step opens at its first key moment (`openingStep`), not its
   * end.
   */
  openAtStory?: boolean
}) {
  const client = useQueryClient()
  // the diagram library loads while the run and its first step are fetched, not after
  useEffect(preloadMermaid, [])
  // a running run's view is asked again until it ends (its status, outcome and failures)
  const run = useQuery({
    ...runQuery(runId),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? RUN_POLL_MS : false),
  })
  const rerun = useRerun()
  const bugs = useQuery({ ...bugsQuery(), enabled: run.data?.bug !== undefined })
  // A run already finished when the page opens, with no step in the URL, opens where its story
  // turns: that needs its summary first, so no step is shown meanwhile.
  // A run that streams follows its live edge; a step in the URL (a permalink) always wins.
  const [opening, setOpening] = useState(openAtStory)
  const choosing =
    opening && view.step === null && run.data !== undefined && run.data.status !== 'running'
  // The page reads the run's summary, never the whole trace (≈ 100 MB of JSON at 10,000 rollouts):
  // the Events tab, a rollout's events and the directory writes are asked of the server by range.
  const trace = useRunSummary(runId, run.data)
  const summary = trace.summary
  const total = summary?.total ?? (run.data && run.data.status !== 'running' ? run.data.events : 0)
  const following = view.step === null
  // While following a streaming run, the view moves to the live edge only once the step it shows
  // has loaded: new events arrive faster than step views, and chasing each would show nothing.
  const [liveStep, setLiveStep] = useState(0)
  const step = following
    ? trace.live
      ? Math.min(liveStep, total)
      : total
    : Math.min(view.step ?? 0, total)
  // While a run streams, the counter, the scrubber and the current-event line show the live edge
  // (the summary's edge); the diagram and the cards show the latest step view the server
  // has answered, and catch up as it answers.
  const atLiveEdge = following && trace.live
  const shownStep = atLiveEdge ? total : step
  // the step view needs only the run (its total): it does not wait for the whole trace to arrive
  // (a queued run has no step views yet: the API answers 409 run_not_started, never waits)
  const ready =
    run.status === 'success' &&
    run.data.queue_position === undefined &&
    (summary !== null || run.data.status !== 'running')

  // the folded phases live in the URL (`fold=`), so a permalink opens folded the same way
  const foldKey = (view.fold ?? []).join(',')
  const folded = useMemo(
    () => (foldKey === '' ? [] : (foldKey.split(',') as TracePhase[])),
    [foldKey],
  )
  const collapsed = useMemo(() => new Set<TracePhase>(folded), [folded])
  const stepView = useQuery({
    ...stepQuery(runId, step, folded),
    enabled: ready && !choosing,
    placeholderData: keepPreviousData,
  })
  const settled = !stepView.isFetching
  useEffect(() => {
    if (following && trace.live && settled && liveStep !== total) setLiveStep(total)
  }, [following, trace.live, settled, liveStep, total])

  useEffect(() => {
    if (!opening || run.data === undefined) return
    if (!choosing) setOpening(false)
    else if (summary !== null) {
      setOpening(false)
      onView(
        {
          ...view,
          step: openingStep(keyMoments(summary.moments, run.data.failures), summary.total),
        },
        { replace: true },
      )
    }
  }, [opening, choosing, run.data, summary, view, onView])

  const seek = (n: number) =>
    onView({ ...view, step: Math.max(0, Math.min(total, n)) }, { replace: true })
  // a jump (a key moment, a phase, a bar of the timeline, a row's change) is a history entry of
  // its own: Back returns to the step it left
  const jump = (n: number) => onView({ ...view, step: Math.max(0, Math.min(total, n)) })
  const playback = usePlayback(step, total, seek)

  // neighbours are what the next key press asks for: fetch them while the user reads this step
  useEffect(() => {
    if (!ready) return
    for (const n of [step + 1, step - 1, step + 2])
      if (n >= 0 && n <= total) void client.prefetchQuery(stepQuery(runId, n, folded))
  }, [client, ready, runId, step, total, folded])

  // the Gantt is built once per trace in the run's worker (≈ 0.6 s at 10,000 rollouts): once the
  // first step is drawn and the run has ended, a small request builds it there, so opening the
  // Timeline tab only asks for its lanes
  const warm = ready && stepView.isSuccess && run.data?.status !== 'running' && total > 0
  useEffect(() => {
    if (!warm) return
    const timer = window.setTimeout(
      () => void client.prefetchQuery(timelineWarmQuery(runId)),
      1_500,
    )
    return () => window.clearTimeout(timer)
  }, [client, warm, runId])

  useStepKeys(step, total, seek, playback.toggle)
  const present = view.present === true
  usePresentKey(() => onView({ ...view, present: !present }, { replace: true }))

  const bands = summary?.bands ?? NO_BANDS
  const starts = useMemo(() => phaseStarts(bands), [bands])
  const phasesPresent = useMemo(() => new Set<TracePhase>(summary?.phases ?? []), [summary?.phases])
  // a filtered read of a running run (a scan of its events on the server) is asked again every
  // FILTER_EDGE_EVERY events, not at every poll of the summary
  const filterEdge = trace.live ? total - (total % FILTER_EDGE_EVERY) : -1
  // the directory writes (5 MB at 10,000 rollouts), only when the step shown is one and the fault
  // control that numbers them is shown: not while following the live edge, not for a fleet run
  const offersFaults = !atLiveEdge && run.data?.kind !== 'fleet' && run.data?.kind !== 'recorded'
  const writes = useFilteredEvents(
    runId,
    { type: 'directory.write' },
    filterEdge,
    offersFaults && stepView.data?.event?.type === 'directory.write',
  )
  const [drawn, setDrawn] = useState<DrawnDiagram | null>(null)
  const diagramPane = useRef<HTMLDivElement>(null)
  const toggleFold = (phase: TracePhase) => {
    const next = new Set(collapsed)
    if (next.has(phase)) next.delete(phase)
    else next.add(phase)
    onView({ ...view, fold: [...next].sort() }, { replace: true })
  }

  if (run.status === 'pending') return <Loading what={`run ${runId}`} minHeight={600} />
  if (run.status === 'error')
    return (
      <ErrorNotice
        what={`open run ${runId}`}
        error={run.error}
        onRetry={() => void run.refetch()}
      />
    )
  if (trace.status === 'error' && trace.error)
    return <ErrorNotice what={`load the trace of run ${runId}`} error={trace.error} />

  const data = stepView.data
  const diagram = data
    ? stickyDiagram(drawn, data, total, stepView.isPlaceholderData ? null : folded.join(','))
    : null
  // The drawn window is state from the previous render (React's "adjust state while rendering"):
  // "Inject a fault where you stand": the same control above the diagram and in the Events tab.
  const runData = run.data
  // A run recorded from processes (cutover fleet) has no fault schedule to edit: a re-run would be
  // a simulation.
  // A recorded run (a real controller's cycle) has none either: its Events tab shows the current
  // exchange whole instead.
  const recorded = runData.kind === 'recorded'
  const injectAt = (testId: string) =>
    recorded ? null : runData.kind === 'fleet' ? (
      <p className="muted" data-testid={testId}>
        Faults are injected into simulated runs; this run was recorded from processes.
      </p>
    ) : (
      <InjectFault
        key={data?.event?.step ?? 0}
        testId={testId}
        event={data?.event ?? null}
        writes={writes ?? []}
        schedule={runData.faults}
        deadlineMs={runData.deadline_ms}
        pending={rerun.pending}
        onRun={(faults) => rerun.rerun(runData, faults, step, view.tab)}
      />
    )
  // stickyDiagram returns the same object when nothing changed, so this settles at once.
  if (diagram !== null && diagram !== drawn) setDrawn(diagram)
  const setTab = (tab: Tab) => onView({ ...view, tab })
  const setSession = (session: string) => onView({ ...view, session }, { replace: true })
  // a frozen view ahead of what has streamed so far (a permalink into a run still starting) has
  // nothing new yet
  const newEvents = Math.max(0, total - (view.step ?? total))
  const openMessage = (at: number) => onView({ ...view, step: at, message: true })
  // Close (or Esc) gives the focus back to the diagram the message was opened from
  const closeMessage = () => {
    onView({ ...view, message: false }, { replace: true })
    diagramPane.current?.querySelector<HTMLElement>('[data-testid="sequence-diagram"]')?.focus()
  }
  // the payload panel takes the cards' place while it is open (beside the diagram in a wide
  // window, under it in a narrow one); presentation mode shows the diagram and the narration only
  const messageOpen = view.message === true && !present
  const failing = (data?.failures ?? []).filter((f) => f.step === data?.step)
  const failureMarks = (data?.failures ?? []).map((f) => f.step)

  // the straggler demo keeps its run in the query: the permalink keeps every parameter but the
  // view's own
  const permalink = (() => {
    const extra = [...new URLSearchParams(window.location.search)].filter(
      ([k]) => !['step', 'tab', 'session', 'q', 'fold', 'message', 'present'].includes(k),
    )
    return `${window.location.pathname}${viewSearch({ ...view, step, message: true, present: false }, extra)}`
  })()
  return (
    <div
      className={`inspector${present ? ' is-presenting' : ''}`}
      data-presenting={present || undefined}
    >
      {recorded ? (
        <RecordedRunHeader run={run.data} />
      ) : (
        <RunHeader
          run={run.data}
          onRemoveFault={(faults) => rerun.rerun(run.data, faults, step, view.tab)}
        />
      )}
      <TransportBar
        step={step}
        shown={shownStep}
        total={total}
        playback={playback}
        onSeek={seek}
        onJump={jump}
        phases={starts}
        bands={bands}
      >
        <StoryNav
          runId={runId}
          summary={summary?.moments ?? NO_MOMENTS}
          edge={filterEdge}
          failures={run.data.failures}
          step={step}
          session={view.session}
          onSeek={jump}
        />
        <div className="live-state" aria-live="polite">
          {trace.live ? (
            following ? (
              <span className="badge status-running">● following live</span>
            ) : (
              <button
                type="button"
                className="badge-button"
                onClick={() => onView({ ...view, step: null }, { replace: true })}
              >
                frozen · {newEvents} new → follow live
              </button>
            )
          ) : null}
        </div>
        <button
          type="button"
          className="present-toggle"
          data-testid="presentation-mode"
          aria-pressed={present}
          title="Presentation mode (p): the diagram and the narration only, in large type"
          onClick={() => onView({ ...view, present: !present }, { replace: true })}
        >
          {present ? 'Exit presentation' : 'Present'}
        </button>
      </TransportBar>
      <DivergedNotice run={run.data} error={stepView.error} />
      <div className={`inspector-body${messageOpen ? ' has-message' : ''}`}>
        <div
          className="stage"
          data-step={data?.step}
          aria-busy={stepView.isFetching && data?.step !== step}
        >
          <div className="diagram-pane" ref={diagramPane}>
            <div className="diagram-tools">
              <CurrentEvent
                data={data}
                live={atLiveEdge ? (summary?.last ?? null) : null}
                narrated={aside === undefined}
                presenting={present}
                failing={failing}
              />
            </div>
            {rerun.error && (
              <ErrorNotice what="create the new run with this fault schedule" error={rerun.error} />
            )}
            {!ready || !data ? (
              stepView.status === 'error' ? (
                <ErrorNotice
                  what={`load step ${step}`}
                  error={stepView.error}
                  onRetry={() => void stepView.refetch()}
                />
              ) : total === 0 && (ready || trace.live) ? (
                <Empty>Waiting for the first event…</Empty>
              ) : trace.live ? (
                <Empty>
                  <span data-testid="live-edge">
                    Live: {total.toLocaleString('en-US')} events so far.
                  </span>{' '}
                  The diagram draws as soon as the server answers a step of this run.
                </Empty>
              ) : (
                <Loading what="the diagram" />
              )
            ) : (
              <MermaidDiagram
                source={diagram?.source ?? ''}
                highlight={diagram?.highlight ?? -1}
                marks={
                  diagram
                    ? diagram.steps.flatMap((s, i) => (failureMarks.includes(s) ? [i] : []))
                    : []
                }
                label={`Sequence diagram, steps ${diagram?.window.from ?? 0}–${diagram?.window.to ?? 0}`}
                onOpen={(index) => {
                  const at = diagram?.steps[index]
                  if (at !== undefined) openMessage(at)
                }}
                presenting={present}
                fill
                tools={
                  <PhaseToggles
                    collapsed={collapsed}
                    onToggle={toggleFold}
                    present={phasesPresent}
                  />
                }
              />
            )}
            {stepView.status === 'error' && data && (
              <ErrorNotice
                what={`load step ${step}`}
                error={stepView.error}
                onRetry={() => void stepView.refetch()}
              />
            )}
          </div>
          {!messageOpen && (
            <aside className="cards-pane" aria-label="Narration and participants" tabIndex={0}>
              {aside?.(data)}
              {present && aside === undefined && data?.event && (
                <p className="present-narration" data-testid="present-narration">
                  {narrate(data.event)}
                </p>
              )}
              {data ? (
                <ParticipantCards participants={data.participants} />
              ) : stepView.status === 'error' ? null : (
                <Loading what="participants" />
              )}
            </aside>
          )}
        </div>
        {messageOpen && (
          <MessagePanel
            runId={runId}
            step={step}
            permalink={permalink}
            onClose={closeMessage}
            onSeek={jump}
            narration={aside?.(data)}
          />
        )}
        <div className="inspector-rest">
          {/* the Events tab has the same control over its rows: one of them at a time */}
          {!atLiveEdge && view.tab !== 'events' && (
            <div className="inject-row">{injectAt('inject-fault')}</div>
          )}
          <div className="export-row">
            <ExportBar run={run.data} mermaid={data?.mermaid ?? null} step={step} />
            {actions}
          </div>
          <Tabs selected={view.tab} onSelect={setTab}>
            {!data ? (
              <Loading what="this step" minHeight={360} />
            ) : view.tab === 'sessions' ? (
              <SessionsTab
                runId={runId}
                step={data.step}
                selected={view.session}
                onSelect={setSession}
                onOpenTables={() => onView({ ...view, tab: 'tables' })}
                onSeek={jump}
              />
            ) : view.tab === 'tables' ? (
              <TablesTab
                runId={runId}
                step={data.step}
                selected={view.session}
                onSelect={setSession}
                onSeek={jump}
              />
            ) : view.tab === 'lineage' ? (
              <LineageTab runId={runId} step={data.step} onSeek={jump} session={view.session} />
            ) : view.tab === 'timeline' ? (
              <TimelineTab
                runId={runId}
                total={total}
                nowMs={data.event?.time_ms ?? null}
                onJump={jump}
              />
            ) : view.tab === 'manifests' ? (
              recorded ? (
                <RecordedDirectories directories={run.data.recording?.directories ?? []} />
              ) : (
                <ManifestsTab runId={runId} status={run.data.status} session={view.session} />
              )
            ) : view.tab === 'invariants' && recorded ? (
              <RecordedChecksTab
                checks={run.data.recording?.checks ?? []}
                step={data.step}
                onSeek={jump}
              />
            ) : view.tab === 'invariants' ? (
              <InvariantsTab
                invariants={data.invariants}
                failures={data.failures}
                runFailures={run.data.failures}
                step={data.step}
                onSeek={jump}
                bug={bugs.data?.bugs.find((b) => b.name === run.data.bug)}
              />
            ) : (
              <EventsTab
                runId={runId}
                total={total}
                filterEdge={filterEdge}
                step={step}
                onSeek={openMessage}
                filter={view.q ?? ''}
                onFilter={(q: string) =>
                  onView({ ...view, q: q === '' ? undefined : q }, { replace: true })
                }
                inject={
                  recorded ? (
                    <RecordedExchange event={data.event} />
                  ) : atLiveEdge ? undefined : (
                    injectAt('inject-fault-events')
                  )
                }
              />
            )}
          </Tabs>
        </div>
      </div>
    </div>
  )
}

/** `p` toggles presentation mode (not while typing, nor with a modifier). */
function usePresentKey(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'p' || event.defaultPrevented) return
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return
      event.preventDefault()
      toggle()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })
}

/** The message at this step in one line, above the diagram. */
function CurrentEvent({
  data,
  live,
  narrated,
  presenting,
  failing,
}: {
  data: StepView | undefined
  live: TraceEvent | null
  narrated: boolean
  /** Presentation mode names the step's narration beside the diagram instead, in large type. */
  presenting: boolean
  /** Invariants that first fail at this step (a teaching-mode bug's failure is named here). */
  failing: readonly InvariantFailure[]
}) {
  const event = live ?? data?.event
  if (!event)
    return (
      <p className="current-event muted">{data ? 'Step 0: before the first message.' : '\u00a0'}</p>
    )
  const rollout = event.payload['rollout_id']
  const attempt = event.payload['attempt_index']
  return (
    <p className="current-event">
      <span className={`phase-chip phase-${event.phase}`}>{event.phase}</span>{' '}
      <span className="mono">{event.from}</span> → <span className="mono">{event.to}</span>{' '}
      <span className="mono strong">{event.type}</span>{' '}
      {typeof rollout === 'string' && (
        <span className="mono session-chip" data-testid="current-session">
          {rollout}
          {typeof attempt === 'number' ? `.a${attempt}` : ''}
        </span>
      )}{' '}
      <span className={event.outcome === 'ok' ? 'muted' : 'outcome-error'}>{event.outcome}</span>
      <span className="muted"> · {event.time_ms} ms</span>
      {live === null &&
        failing.map((f) => (
          <span key={f.id} className="failure-chip" data-testid="event-failure">
            {' '}
            ✗ invariant {f.id} fails here: {f.message}
          </span>
        ))}
      {/* a page with its own narration (the straggler demo) does not repeat it here */}
      {narrated && !presenting && (
        <span className="narration small" data-testid="narration">
          {narrate(event)}
        </span>
      )}
    </p>
  )
}
