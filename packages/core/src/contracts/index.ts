/**
 * The shapes shared by core, the API and the web app. The only module apps/web imports from core.
 */
export { ERROR_CODES, cutoverError, errorBody } from './errors.ts'
export type { ErrorCode, ErrorBody, CutoverError } from './errors.ts'
export { ENV_NAMES } from './environments.ts'
export type { EnvName } from './environments.ts'
export { TRACE_PHASES, TRACE_EVENT_TYPES } from './trace.ts'
export type {
  TracePhase,
  ParticipantId,
  TraceEvent,
  TraceEventOf,
  TraceEventType,
  TracePayloads,
  TraceOutcome,
  TraceMessage,
} from './trace.ts'
export {
  faultSchema,
  runConfigSchema,
  seedSchema,
  SCENARIO_NAMES,
  MAX_ROLLOUTS,
  CUT_FAULT_KINDS,
  FAULT_KINDS,
} from './scenarios.ts'
export { didYouMean, unknownNameMessage } from './didYouMean.ts'
export { FAULTS_EXAMPLE, parseFaultsInput } from './parseFaultsInput.ts'
export type { FaultsInput } from './parseFaultsInput.ts'
export type {
  Fault,
  FaultKind,
  InertFault,
  ScenarioName,
  ScenarioInfo,
  RunConfigInput,
  RunConfig,
} from './scenarios.ts'
export { INVARIANT_IDS, RECORDED_SCENARIO, RUN_KINDS } from './views.ts'
export {
  RECORDED_CHECK_IDS,
  RECORDED_CHECK_INVARIANT,
  RECORDED_CHECK_TEXT,
  UNCHECKABLE_INVARIANTS,
} from './recording.ts'
export type {
  RecordedCheck,
  RecordedCheckId,
  RecordedCheckStatus,
  RecordedDirectoryView,
  RecordingProblem,
  RecordingProxyView,
  RecordingView,
} from './recording.ts'
export {
  CUT_MODES,
  DEFAULT_CUT_MODE,
  CUT_DISPOSITIONS,
  CUT_KINDS,
  PREFIX_DELIVERIES,
} from './generationCuts.ts'
export type {
  CutMode,
  CutDisposition,
  CutKind,
  PrefixDelivery,
  GenerationCutProof,
  GenerationCutRecord,
  GenerationCutView,
  TokenSegmentView,
} from './generationCuts.ts'
export { BUG_NAMES, CUT_BUG_NAMES } from './bugs.ts'
export { simulateCommandLine } from './simulateCommandLine.ts'
export { fleetCommandLine } from './fleetCommandLine.ts'
export { rolloutIds, rolloutNamingHint } from './rolloutIds.ts'
export {
  CORRUPTIBLE_NAMESPACES,
  SEGMENTS_FOLDER,
  corruptibleFiles,
  directoryWriteFaults,
} from './faultTargets.ts'
export type { CorruptibleFolder, CorruptibleNamespace } from './faultTargets.ts'
export { BANDED_PHASES, createRunSummaryBuilder, phaseBands, runSummary } from './runSummary.ts'
export type {
  BandedPhase,
  KeyMoment,
  MomentKind,
  PhaseBand,
  RunSummary,
  RunSummaryBuilder,
} from './runSummary.ts'
export { eventMatches, eventText, filterEvents, filterWords } from './eventFilter.ts'
export {
  DEFAULT_SESSION_SORT,
  SESSION_COLUMNS,
  SORT_DIRECTIONS,
  sessionMatches,
  sessionNeedle,
  sortSessions,
} from './sortSessions.ts'
export type { SessionColumn, SessionSort } from './sortSessions.ts'
export {
  INTEGER_FIELDS,
  MAX_DEADLINE_MS,
  SEED_RULE,
  integerRule,
  integerTextProblem,
  seedTextProblem,
} from './numberFields.ts'
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
  StepParticipantView,
  SessionsView,
  SessionsWindow,
  EventsRange,
  SessionDetailView,
  TableView,
  TablesView,
  RowChangeSteps,
  LineageView,
  CheckpointFileView,
  CheckpointView,
} from './views.ts'
export type { JsonValue } from '../json.ts'
export { CARD_FIELDS } from './inspectorViews.ts'
export type {
  CardChange,
  CardField,
  MessageView,
  PairRole,
  TimelineBar,
  TimelineBarKind,
  TimelineLane,
  TimelineView,
} from './inspectorViews.ts'
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
export { differingFields } from './runDiff.ts'
export type {
  FirstDivergence,
  RunDiffSummary,
  StateDifference,
  DifferenceView,
  RunDiffView,
} from './runDiff.ts'
