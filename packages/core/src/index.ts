/** @cutover/core: the pure domain. Explicit named re-exports only. */
export { ok, err } from './result.ts'
export type { Result } from './result.ts'
export { assert, assertNever } from './assert.ts'
export { canonicalJson } from './json.ts'
export { forgetValidatedReads } from './directory/validatedByDigest.ts'
export type { JsonValue } from './json.ts'
export type { Digest, Clock } from './ports.ts'
export { DirectoryWriteError, directoryWriteCode } from './directory/CheckpointDirectory.ts'
export type { CheckpointDirectory, DirectoryEntry } from './directory/CheckpointDirectory.ts'
// records: identities, keys, record types and their schemas (records/)
export {
  resourceSnapshotSchema,
  resourceSnapshotV1Schema,
  resourceMutationReceiptSchema,
  RESOURCE_SNAPSHOT_SCHEMA_VERSION,
} from './records/ResourceSnapshot.ts'
export type {
  ResourceSnapshot,
  ResourceSnapshotV1,
  ResourceMutationReceipt,
} from './records/ResourceSnapshot.ts'
export {
  executionKey,
  captureKey,
  parseKey,
  executionIdentitySchema,
} from './records/ExecutionIdentity.ts'
export type { ExecutionIdentity } from './records/ExecutionIdentity.ts'
export { agentBoundaryRecordSchema } from './records/AgentBoundaryRecord.ts'
export type { AgentBoundaryRecord } from './records/AgentBoundaryRecord.ts'
export { lineageRowSchema } from './records/LineageRow.ts'
export type { LineageRow } from './records/LineageRow.ts'
export { continuationRootSchema } from './records/ContinuationRoot.ts'
export type { ContinuationRoot } from './records/ContinuationRoot.ts'
export { ENV_NAMES } from './contracts/environments.ts'
export type { EnvName } from './contracts/environments.ts'
export type {
  SimulationDeps,
  SimulatedCheckpoint,
  SimulationResult,
} from './simulator/Simulation.ts'
// checkpoint directory D (directory/README.md)
export {
  AGENT_DIR,
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  MODEL_LEDGER_DIR,
  POLICY_SERVER_NAME,
  RESOURCES_DIR,
  TOKEN_STORE_MANIFEST_PATH,
  agentManifestPath,
  agentRecordPath,
  executionFileName,
  notACheckpointReason,
  ledgerLineagePath,
  ledgerManifestPath,
  resourcesManifestPath,
  resourcesSnapshotPath,
} from './directory/layout.ts'
export {
  agentManifestSchema,
  aggregateManifestSchema,
  checkpointMarkerSchema,
  ledgerManifestSchema,
  resourcesManifestSchema,
  tokenStoreManifestSchema,
} from './directory/manifests.ts'
export type {
  AgentManifest,
  AggregateManifest,
  AggregateParticipant,
  CheckpointMarker,
  LedgerManifest,
  LiveMembershipEntry,
  ParticipantKind,
  ResourcesManifest,
  StorageReference,
  TokenStoreManifest,
} from './directory/manifests.ts'
export { PROBLEM_CODES } from './directory/problems.ts'
export type {
  CheckpointProblem,
  DirectoryCommitError,
  NamespaceLoadError,
  ProblemCode,
  VerifyReport,
} from './directory/problems.ts'
export { continuationRootsDigest, continuationRootsOf } from './directory/continuationRoots.ts'
export { committedContinuationRoots } from './directory/committedContinuationRoots.ts'
export { checkpointPublisher } from './directory/checkpointPublisher.ts'
export type { CheckpointPublisher } from './directory/checkpointPublisher.ts'
export { commitAgentNamespace } from './directory/commitAgentNamespace.ts'
export type { AgentCommitInput, AgentCommitResult } from './directory/commitAgentNamespace.ts'
export { commitLedgerNamespace } from './directory/commitLedgerNamespace.ts'
export type { LedgerCommitInput, LedgerCommitResult } from './directory/commitLedgerNamespace.ts'
export { commitResourcesNamespace } from './directory/commitResourcesNamespace.ts'
export type {
  ResourcesCommitInput,
  ResourcesCommitResult,
} from './directory/commitResourcesNamespace.ts'
export { publishAggregateManifest } from './directory/publishAggregateManifest.ts'
export type { AggregateInput, AggregateResult } from './directory/publishAggregateManifest.ts'
export { publishTokenStoreManifest } from './directory/publishTokenStoreManifest.ts'
export type { TokenStoreInput } from './directory/publishTokenStoreManifest.ts'
export { publishCheckpointMarker } from './directory/publishCheckpointMarker.ts'
export { loadAgentNamespace } from './directory/loadAgentNamespace.ts'
export type { LoadedAgentNamespace } from './directory/loadAgentNamespace.ts'
export { loadLedgerNamespace } from './directory/loadLedgerNamespace.ts'
export type { LoadedLedgerNamespace } from './directory/loadLedgerNamespace.ts'
export { loadResourcesNamespace } from './directory/loadResourcesNamespace.ts'
export type { LoadedResourcesNamespace } from './directory/loadResourcesNamespace.ts'
export { loadAggregateManifest } from './directory/loadAggregateManifest.ts'
export type { LoadedAggregateManifest } from './directory/loadAggregateManifest.ts'
export { reconcileReplacementSet } from './directory/reconcileReplacementSet.ts'
export { verifyCheckpoint } from './directory/verifyCheckpoint.ts'
export { loadPublishedCheckpoint } from './directory/loadPublishedCheckpoint.ts'
export { tokenSegmentViews } from './directory/tokenSegments.ts'
export { isSafeRelativePath } from './directory/safePath.ts'
export {
  renderSequenceDiagram,
  MAX_DIAGRAM_EVENTS,
  MAX_SOURCE_CHARS,
  HIGHLIGHT_COLOUR,
  HIGHLIGHT_MARK,
  PHASE_COLOURS,
} from './render/renderSequenceDiagram.ts'
export type { SequenceDiagram, SequenceDiagramOptions } from './render/renderSequenceDiagram.ts'
export { diagramWindow, DEFAULT_WINDOW_SIZE } from './render/diagramWindow.ts'
export { compareParticipants, diagramParticipant } from './render/diagramParticipant.ts'
export type { StepWindow } from './render/diagramWindow.ts'
export { demoTrace } from './render/demoTrace.ts'
// environments and their checkpoint codecs (environments/, rng/)
export { PyRandom } from './rng/PyRandom.ts'
export type { PyRandomState } from './rng/PyRandom.ts'
export type {
  EnvResponse,
  RouteKind,
  EnvironmentServer,
  EnvHandleResult,
  CheckpointCodec,
} from './environments/EnvironmentServer.ts'
export { restoreCheckpointStates } from './environments/restoreCheckpointStates.ts'
export type { RestoredSession } from './environments/restoreCheckpointStates.ts'
export { checkpointRouteKind } from './environments/checkpointRouteKind.ts'
export { extractText } from './environments/gymnasium/extractText.ts'
export { jsonSafeCopy } from './environments/gymnasium/jsonSafeCopy.ts'
// the reference servers' Python JSON: numbers, parsing, pydantic models (environments/pyjson/)
export {
  PyFloat,
  PyInt,
  pyFloat,
  numberValue,
  isPyDict,
  withPlainFloats,
} from './environments/pyjson/pyValues.ts'
export type { PyJson } from './environments/pyjson/pyValues.ts'
export { parsePyJson } from './environments/pyjson/parsePyJson.ts'
export { encodePyJson } from './environments/pyjson/encodePyJson.ts'
export { pyFloatRepr } from './environments/pyjson/pyFloatRepr.ts'
export type { PyType } from './environments/pyjson/pydanticTypes.ts'
export { pyModel, pyDict, pyList, pyAny } from './environments/pyjson/pydanticTypes.ts'
export type { GymRouteModel, GymRouteModels } from './environments/gymnasium/GymRouteModel.ts'
export { validateRequestBody } from './environments/gymnasium/validateRequestBody.ts'
export { counterRouteModels } from './environments/counter/counterRouteModels.ts'
export { blackjackRouteModels } from './environments/blackjack/blackjackRouteModels.ts'
export { workplaceRouteModels } from './environments/workplace/workplaceRouteModels.ts'
export { createBlackjackServer, blackjackCodec } from './environments/blackjack/blackjackServer.ts'
export type {
  BlackjackSession,
  BlackjackServerOptions,
} from './environments/blackjack/blackjackServer.ts'
export {
  RANKS,
  handValue,
  formatHand,
  parseAction,
} from './environments/blackjack/blackjackRules.ts'
export { createCounterServer, counterCodec } from './environments/counter/counterServer.ts'
export type { CounterSession } from './environments/counter/counterServer.ts'
export { createWorkplaceServer } from './environments/workplace/workplaceServer.ts'
export {
  createWorkplaceCodec,
  WORKPLACE_STATE_VERSION,
} from './environments/workplace/workplaceCodec.ts'
export type { WorkplaceCodecOptions } from './environments/workplace/workplaceCodec.ts'
export { parseWorkplaceBase } from './environments/workplace/WorkplaceData.ts'
export type { WorkplaceData } from './environments/workplace/WorkplaceData.ts'
export {
  freshSession,
  sessionTables,
  SESSION_TABLES,
  ALL_TABLES,
} from './environments/workplace/WorkplaceSession.ts'
export type {
  WorkplaceSession,
  WorkplaceBase,
  WorkplaceExample,
  TableName,
  SessionTableName,
} from './environments/workplace/WorkplaceSession.ts'
export type { Table, Row, Cell } from './environments/workplace/Table.ts'
export { toSplit } from './environments/workplace/splitTable.ts'
export type { SplitTable } from './environments/workplace/splitTable.ts'
export { diffTables, diffSummary } from './environments/workplace/diffTables.ts'
export { routeToolCall } from './environments/workplace/routeToolCall.ts'
export { callTool, WORKPLACE_TOOLS } from './environments/workplace/workplaceTools.ts'
export type { ToolOutcome } from './environments/workplace/workplaceTools.ts'
export { verifyWorkplace, replayActions } from './environments/workplace/verifyWorkplace.ts'
// the resources participant and its checkpoint I/O, for the HTTP transport (apps/api)
export { ResourcesParticipant, RECEIPT_CAPACITY } from './protocol/ResourcesParticipant.ts'
export { TombstoneSet } from './protocol/TombstoneSet.ts'
export type {
  ResourcesRequest,
  ResourcesResponse,
  ResourcesSessionInfo,
} from './protocol/ResourcesParticipant.ts'
export { ControlFence, FENCE_PHASES } from './protocol/ControlFence.ts'
export type { FencePhase, FenceSnapshot } from './protocol/ControlFence.ts'
// protocol participants, controller, simulator, scenarios, invariants (simulator/EVENTS.md)
export { FENCE_OPS, forRequest } from './protocol/ControlFence.ts'
export type { FenceOperation, FenceBegin, FenceTicket } from './protocol/ControlFence.ts'
export { PolicyModel } from './protocol/PolicyModel.ts'
export type {
  AdmissionState,
  ModelAdmission,
  TokenCoordinates,
  AdmissionReport,
  ModelCommitResult,
  ModelRestoreResult,
  PolicyModelOptions,
} from './protocol/PolicyModel.ts'
export { AgentParticipant } from './protocol/AgentParticipant.ts'
export type {
  ExecutionState,
  CompletionReceipt,
  Execution,
  AgentStatus,
} from './protocol/AgentParticipant.ts'
export { TokenStore, tokenize } from './protocol/TokenStore.ts'
export { GenerationWorker } from './protocol/GenerationWorker.ts'
export { Controller } from './controller/Controller.ts'
export type { ControllerTestOptions } from './controller/Controller.ts'
export type {
  ControllerHost,
  ControllerTask,
  SteppedDirectory,
} from './controller/ControllerHost.ts'
export type {
  AgentControl,
  Fleet,
  ModelControl,
  Reply,
  ResourcesControl,
} from './controller/Fleet.ts'
export { simulate, runSimulation, resolveRunConfig } from './simulator/simulate.ts'
export type { SimulateOptions } from './simulator/simulate.ts'
export {
  rolloutIds,
  planRollouts,
  decide,
  counterTask,
  applyStart,
  applyEnvResponse,
  startRequest,
  verifyRequest,
  INITIAL_DRIVER_STATE,
} from './simulator/Workload.ts'
export { checkFaults } from './simulator/checkFaults.ts'
export { corruptCheckpoint } from './simulator/corruptCheckpoint.ts'
export { inertFaults } from './simulator/inertFaults.ts'
export { BUG_CATALOGUE, bugInfo } from './scenarios/bugCatalogue.ts'
export type { RolloutPlan, DriverState, Decision } from './simulator/Workload.ts'
export { SCENARIOS, scenarioInfo } from './scenarios/presets.ts'
export { InvariantChecker } from './invariants/InvariantChecker.ts'
export { listNamespaceFiles } from './directory/listNamespaceFiles.ts'
export { loadReplacementSet } from './directory/loadReplacementSet.ts'
export type { ReplacementSet } from './directory/loadReplacementSet.ts'
export {
  workplaceSnapshotSizes,
  exampleGroundTruthSessions,
} from './environments/workplace/workplaceSnapshotSizes.ts'
// post-mortem inspection of a checkpoint directory (inspect/)
export { inspectDirectory } from './inspect/inspectDirectory.ts'
export type { DirectoryInspection } from './inspect/inspectDirectory.ts'
export { snapshotTables } from './inspect/snapshotTables.ts'
export { rowChangeSteps, stateRequests } from './inspect/rowChangeSteps.ts'
export type { RequestTables, StateRequest } from './inspect/rowChangeSteps.ts'
// two runs aligned to their first divergence (diff/)
export { diffTraces } from './diff/diffTraces.ts'
export type { TraceDiff, TraceDifference } from './diff/diffTraces.ts'
export { compareStates } from './diff/compareStates.ts'
export { summarizeDiff } from './diff/summarizeDiff.ts'
// recorded runs: a real checkpoint cycle read from its exchanges (recording/, docs/recording.md)
export {
  recordedExchangeSchema,
  exchangeEnd,
  REQUIRED_EXCHANGE_FIELDS,
} from './recording/RecordedExchange.ts'
export type { RecordedExchange, RecordedBody } from './recording/RecordedExchange.ts'
export { parseRecording, readRecordingLine } from './recording/parseRecording.ts'
export type { ParsedRecording, RecordingEntry } from './recording/parseRecording.ts'
export { exchangeRoute, splitRolloutPrefix } from './recording/exchangeRoute.ts'
export type { ExchangeRoute, ParticipantRole } from './recording/exchangeRoute.ts'
export {
  RecordedTraceBuilder,
  exchangeIdentity,
  traceParticipantId,
} from './recording/RecordedTraceBuilder.ts'
export { recordedChecks } from './recording/recordedChecks.ts'
export type { RecordedDirectoryFacts } from './recording/recordedChecks.ts'
export { recordedViews, recordedInvariants } from './recording/recordedViews.ts'
export type { TraceViews } from './recording/recordedViews.ts'
export { namedDirectories } from './recording/namedDirectories.ts'
export type { NamedDirectory } from './recording/namedDirectories.ts'
