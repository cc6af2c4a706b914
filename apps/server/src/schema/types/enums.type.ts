import { builder } from '../builder.ts';

export const MapModeEnum = builder.enumType('MapMode', { values: ['STANDARD', 'DIVERGENT'] as const });
export const MapStatusEnum = builder.enumType('MapStatus', {
  values: ['DRAFT', 'ACTIVE', 'COMPLETED', 'ARCHIVED'] as const,
});
export const NodeTypeEnum = builder.enumType('NodeType', { values: ['ROOT', 'TASK'] as const });
export const NodeStatusEnum = builder.enumType('NodeStatus', {
  values: ['PENDING', 'READY', 'BLOCKED', 'RUNNING', 'WAITING', 'COMPLETED', 'FAILED'] as const,
});
export const NodeIntentEnum = builder.enumType('NodeIntent', {
  values: ['DECOMPOSE', 'CONCLUDE', 'EXPLORE', 'CLARIFY'] as const,
});
export const DecompositionStrategyEnum = builder.enumType('DecompositionStrategy', {
  values: ['SEQUENTIAL', 'PARALLEL', 'HIERARCHICAL', 'EXPLORATORY'] as const,
});
export const ConclusionKindEnum = builder.enumType('ConclusionKind', {
  values: ['ANALYTICAL', 'CREATIVE', 'DECISION', 'LEARNING'] as const,
});
export const DivergentRoleEnum = builder.enumType('DivergentRole', { values: ['SUMMARY', 'TASK', 'FINAL'] as const });
export const ConversationKindEnum = builder.enumType('ConversationKind', {
  values: ['DECOMPOSE', 'CONCLUDE'] as const,
});
export const MessageRoleEnum = builder.enumType('MessageRole', { values: ['USER', 'ASSISTANT', 'SYSTEM'] as const });
export const MessageKindEnum = builder.enumType('MessageKind', { values: ['TEXT', 'RAG', 'NOTICE'] as const });
export const LanguageEnum = builder.enumType('Language', { values: ['zh', 'en'] as const });
