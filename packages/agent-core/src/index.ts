// Errors

export type {
  CheckpointQuery,
  CheckpointRow,
  CheckpointStorePort,
  CheckpointWriteRow,
  SerializedValue,
} from './checkpoint/checkpoint-store-port.ts';
export { PortCheckpointSaver } from './checkpoint/port-checkpoint-saver.ts';
export { checkpointsOfVisits, readStepCheckpoints, type StepCheckpoint } from './checkpoint/step-checkpoints.ts';
// Engineering parts
export {
  BOTH_CONVERSATIONS,
  buildNodeContext,
  collectNodeContext,
  readNodeContext,
} from './context/collect-node-context.ts';
export { CONTEXT_LIMITS, clip } from './context/context-limits.ts';
export { contextView } from './context/context-view.ts';
export { formatNodeContext } from './context/format-node-context.ts';
export type {
  ContextMessage,
  ConversationContext,
  ConversationSummary,
  NodeContext,
  RelatedNode,
} from './context/node-context.ts';
export { replyParentId, type ThreadMessage, threadOf } from './conversation/conversation-thread.ts';
export { countByRole } from './conversation/count-by-role.ts';
export { summarizeConversation } from './conversation/summarize-conversation.ts';
export { checkDependencies } from './dependencies/check-dependencies.ts';
export { nextBottomUpNode } from './dependencies/next-bottom-up-node.ts';
export {
  type DroppedDependency,
  type ProposalDependencies,
  planProposalDependencies,
} from './dependencies/plan-proposal-dependencies.ts';
// Domain
export * from './domain/enums.ts';
export type * from './domain/records.ts';
export { AgentError, type AgentErrorCode, type AgentErrorOptions, isAgentError } from './errors/agent-error.ts';
export {
  ConsultationConductor,
  type SentMessage,
  type TurnGraph,
  type TurnLifecycle,
  type TurnOutcome,
} from './graphs/consultation/conductor.ts';
export { ConsultationBusyError } from './graphs/consultation/consultation-busy-error.ts';
export { CONSULTATION_LIMITS, type ConsultationDeps } from './graphs/consultation/consultation-deps.ts';
export { CONSULTATION_GRAPH, createConsultationGraph } from './graphs/consultation/graph.ts';
export { normalizeNotePath } from './graphs/consultation/note-path.ts';
export type { ConsultationStateType } from './graphs/consultation/state.ts';
export type { TurnFailure } from './graphs/consultation/turn-failure.ts';
export type { CriticDeps } from './graphs/critic/critic-deps.ts';
export { CRITIC_GRAPH, createCriticGraph } from './graphs/critic/graph.ts';
export * from './graphs/critic/schemas.ts';
export type { DivergentDeps } from './graphs/divergent/divergent-deps.ts';
export { DIVERGENT_GRAPH } from './graphs/divergent/divergent-graph-name.ts';
export { createDivergentGraph } from './graphs/divergent/graph.ts';
export { DIVERGENT_NOTES } from './graphs/divergent/notes.ts';
export {
  COMPLETION_WEIGHTS,
  type CompletionEvaluation,
  DIVERGENT_LIMITS,
  overallScore,
  type PlannedTask,
  PlannedTaskSchema,
  type ReviewDivergentTasksReply,
  ReviewDivergentTasksReplySchema,
} from './graphs/divergent/schemas.ts';
export {
  createDivergentSkills,
  type DivergentSkillSources,
} from './graphs/divergent/skills/create-divergent-skills.ts';
export type {
  DivergentStateType,
  DroppedTask,
  LevelTask,
  ScoreRecord,
  SummaryRecord,
  TaskOutcome,
} from './graphs/divergent/state.ts';
export * from './graphs/process-node/fork.ts';
export { createProcessNodeGraph } from './graphs/process-node/graph.ts';
export { PROCESS_NODE_GRAPH } from './graphs/process-node/process-node-graph-name.ts';
export * from './graphs/process-node/replies.ts';
export type { ProcessNodeStateType } from './graphs/process-node/state.ts';
// Graphs
export type { AgentDeps } from './graphs/shared/agent-deps.ts';
export { EXPIRED_REPLY } from './graphs/shared/ask-person.ts';
// Graph topology (drawn from the compiled graphs)
export { StepKind } from './graphs/shared/step-kind.ts';
export { AGENT_GRAPHS, agentGraphTopologies } from './graphs/topology/agent-graphs.ts';
export {
  describeGraph,
  type GraphTopology,
  type TopologyEdge,
  type TopologyNode,
  TopologyNodeKind,
} from './graphs/topology/describe-graph.ts';
export { createUnderstandProblemGraph, UNDERSTAND_PROBLEM_GRAPH } from './graphs/understand-problem/graph.ts';
export {
  type ConfirmUnderstandingReply,
  ConfirmUnderstandingReplySchema,
  type UnderstandProblemStateType,
} from './graphs/understand-problem/state.ts';
// Knowledge retrieval over MCP
export * from './knowledge/index.ts';
export { detectLanguage } from './language/detect-language.ts';
// Models
export { createModelFromEnv } from './model/create-model.ts';
export {
  CapabilityRegistry,
  FULL_CAPABILITIES,
  type ModelCapabilities,
  processCapabilities,
  STRUCTURED_OUTPUTS,
  type StructuredOutput,
} from './model/endpoint-capabilities.ts';
export { estimatePromptTokens, estimateTextTokens } from './model/estimate-tokens.ts';
export { InMemoryTokenLedger } from './model/in-memory-token-ledger.ts';
export { MeteredModel, type MeterOptions } from './model/metered-model.ts';
export { type CheckRow, checkModel, formatModelCheck, type ModelCheck } from './model/model-check.ts';
export { type AgentEndpoint, modelConfigFromEnv, type OpenAiModelConfig } from './model/model-config.ts';
export { OFFLINE_LABEL } from './model/offline-answers.ts';
export { OfflineModel } from './model/offline-model.ts';
export { OpenAiModel, type ToolRequest } from './model/openai-model.ts';
export {
  BUDGET_RULES,
  type BudgetGrant,
  type BudgetRules,
  type BudgetStanding,
  budgetExhausted,
  grantFor,
} from './model/token-budget.ts';
export type {
  ConsultationMapNode,
  ConsultationMessage,
  ConsultationNoteDraft,
  ConsultationPlan,
  ConsultationProposalDraft,
  ConsultationRecordDraft,
  ConsultationRecordSummary,
  ConsultationSnapshot,
  ConsultationStorePort,
  ConsultationStreamPort,
  NotesPort,
} from './ports/consultation-store-port.ts';
export type {
  CriticScope,
  CriticStorePort,
  DismissedFinding,
  ScopedNode,
  SuggestionInput,
} from './ports/critic-store-port.ts';
export type { DivergentProgress, ScoredDimension } from './ports/divergent-progress.ts';
// Ports
export type {
  CitableResult,
  DivergentSkillName,
  DivergentSkills,
  SkillRequest,
  SkillResult,
} from './ports/divergent-skills-port.ts';
export { DIVERGENT_SKILL_NAMES } from './ports/divergent-skills-port.ts';
export type {
  DivergentSteering,
  DivergentSteeringPort,
  SteeredTask,
} from './ports/divergent-steering-port.ts';
export { NO_STEERING } from './ports/divergent-steering-port.ts';
export type { CreateDivergentNodeInput, DivergentStorePort } from './ports/divergent-store-port.ts';
export type { AgentQuestion, EventPort, RunRef, StepOutcome } from './ports/event-port.ts';
export { SILENT_EVENTS } from './ports/event-port.ts';
export type {
  KnowledgePort,
  KnowledgeResult,
  KnowledgeSearchAnswer,
  KnowledgeSearchOptions,
  KnowledgeSource,
  KnowledgeTool,
  KnowledgeToolAnswer,
} from './ports/knowledge-port.ts';
export { DOMAIN_KNOWLEDGE_TOOL_ID } from './ports/knowledge-port.ts';
export type {
  AgentName,
  CallMeter,
  ChatMessage,
  ChatRequest,
  ChatResult,
  MeteredCall,
  ModelPort,
  ModelUsage,
  OfflineHint,
  StructuredRequest,
  StructuredResult,
} from './ports/model-port.ts';
export type {
  ConversationTail,
  CreateNodeInput,
  DecisionInput,
  Idempotent,
  MapUnderstanding,
  NodeNeighbourhood,
  PostMessageInput,
  StorePort,
} from './ports/store-port.ts';
export type { TokenLedger, TokenReservation } from './ports/token-ledger.ts';
// Runs and checkpoints
export {
  type DriveRunOptions,
  type Durability,
  driveRun,
  type InvokableGraph,
  type RunOutcome,
  resumeWith,
} from './runs/drive-run.ts';
export { type InspectableGraph, recoveryInput } from './runs/recovery-input.ts';
// Schemas of agent outputs
export * from './schemas/clarify-question.ts';
export * from './schemas/conclusion-draft.ts';
export * from './schemas/consultation.ts';
export * from './schemas/intent-decision.ts';
export * from './schemas/strategy-decision.ts';
export * from './schemas/sub-question-proposal.ts';
export * from './schemas/tool-choice.ts';
export * from './schemas/understanding.ts';
