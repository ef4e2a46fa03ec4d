/** The shapes shared by core, the API and the web app. The only module apps/web imports from core. */
export { ERROR_CODES, cutoverError } from './errors.ts'
export type { ErrorCode, ErrorBody, CutoverError } from './errors.ts'
export { ENV_NAMES } from './environments.ts'
export type { EnvName } from './environments.ts'
export { TRACE_PHASES, TRACE_EVENT_TYPES } from './trace.ts'
export type { TracePhase, ParticipantId, TraceEvent, TraceEventOf, TraceEventType, TracePayloads, TraceOutcome, TraceMessage } from './trace.ts'
export { faultSchema, runConfigSchema, seedSchema, SCENARIO_NAMES, MAX_ROLLOUTS } from './scenarios.ts'
export type { Fault, FaultKind, InertFault, ScenarioName, ScenarioInfo, RunConfigInput, RunConfig } from './scenarios.ts'
export { INVARIANT_IDS, RUN_KINDS } from './views.ts'
export { BUG_NAMES } from './bugs.ts'
export { simulateCommandLine } from './simulateCommandLine.ts'
export { rolloutIds, rolloutNamingHint } from './rolloutIds.ts'
export { INTEGER_FIELDS, MAX_DEADLINE_MS, SEED_RULE, integerRule, integerTextProblem, seedTextProblem } from './numberFields.ts'
export type { BugName, BugInfo } from './bugs.ts'
export type {
  InvariantId,
  InvariantStatus,
  InvariantMap,
  InvariantFailure,
  RunKind,
  FleetProcessView,
  RunStatus,
  RunView,
  ParticipantView,
  SessionState,
  SessionRow,
  StepView,
  SessionDetailView,
  TableView,
  TablesView,
  LineageView,
  CheckpointFileView,
  CheckpointView,
} from './views.ts'
export type { JsonValue } from '../json.ts'
export type {
  DirectoryRunView,
  DirectoryProblemView,
  DirectoryFileView,
  DirectoryTimelineEntry,
  DirectorySessionDetail,
  DirectorySessionView,
  DirectoryBoundaryView,
  DirectoryLineageView,
} from './directoryRun.ts'
export type { FirstDivergence, RunDiffSummary, StateDifference, DifferenceView, RunDiffView } from './runDiff.ts'
