import {
  ConclusionKind,
  ConversationKind,
  DecompositionStrategy,
  DivergentRole,
  Language,
  MapMode,
  MapStatus,
  MessageKind,
  MessageRole,
  NodeIntent,
  NodeStatus,
  NodeType,
  QuestionStatus,
  RunStatus,
  StaleReason,
  TokenScope,
} from '@thinkingmap/db';
import { builder } from './builder.ts';

// Each GraphQL enum is built from the Prisma enum of the same name (its one source), so a value added to
// prisma/schema.prisma appears in the API, the zod inputs and the agents with no other edit.

export const MapModeEnum = builder.enumType(MapMode, { name: 'MapMode' });
export const MapStatusEnum = builder.enumType(MapStatus, { name: 'MapStatus' });
export const NodeTypeEnum = builder.enumType(NodeType, { name: 'NodeType' });
export const NodeStatusEnum = builder.enumType(NodeStatus, { name: 'NodeStatus' });
export const NodeIntentEnum = builder.enumType(NodeIntent, { name: 'NodeIntent' });
export const DecompositionStrategyEnum = builder.enumType(DecompositionStrategy, { name: 'DecompositionStrategy' });
export const ConclusionKindEnum = builder.enumType(ConclusionKind, { name: 'ConclusionKind' });
export const DivergentRoleEnum = builder.enumType(DivergentRole, { name: 'DivergentRole' });
export const ConversationKindEnum = builder.enumType(ConversationKind, { name: 'ConversationKind' });
export const MessageRoleEnum = builder.enumType(MessageRole, { name: 'MessageRole' });
export const MessageKindEnum = builder.enumType(MessageKind, { name: 'MessageKind' });
export const LanguageEnum = builder.enumType(Language, { name: 'Language' });
export const RunStatusEnum = builder.enumType(RunStatus, { name: 'RunStatus' });
export const QuestionStatusEnum = builder.enumType(QuestionStatus, { name: 'QuestionStatus' });
export const StaleReasonEnum = builder.enumType(StaleReason, {
  name: 'StaleReason',
  description: "Why a node's conclusion is out of date.",
});
export const TokenScopeEnum = builder.enumType(TokenScope, { name: 'TokenScope' });
