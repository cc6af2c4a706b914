import { z } from 'zod';

/** What an agent decides to do with a node. Mirrors the API enum `NodeIntent`. */
export const NODE_INTENTS = ['DECOMPOSE', 'CONCLUDE', 'EXPLORE', 'CLARIFY'] as const;
/** What an agent decides to do with a node. */
export type NodeIntent = (typeof NODE_INTENTS)[number];
/** Zod schema of {@link NodeIntent}. */
export const NodeIntentSchema = z.enum(NODE_INTENTS);

/** How a node's question is split. Mirrors the API enum `DecompositionStrategy`. */
export const DECOMPOSITION_STRATEGIES = ['SEQUENTIAL', 'PARALLEL', 'HIERARCHICAL', 'EXPLORATORY'] as const;
/** How a node's question is split. */
export type DecompositionStrategy = (typeof DECOMPOSITION_STRATEGIES)[number];
/** Zod schema of {@link DecompositionStrategy}. */
export const DecompositionStrategySchema = z.enum(DECOMPOSITION_STRATEGIES);

/** The kind of a conclusion. Mirrors the API enum `ConclusionKind`. */
export const CONCLUSION_KINDS = ['ANALYTICAL', 'CREATIVE', 'DECISION', 'LEARNING'] as const;
/** The kind of a conclusion. */
export type ConclusionKind = (typeof CONCLUSION_KINDS)[number];
/** Zod schema of {@link ConclusionKind}. */
export const ConclusionKindSchema = z.enum(CONCLUSION_KINDS);

/** A node's status. Mirrors the database enum `NodeStatus`. */
export const NODE_STATUSES = ['PENDING', 'READY', 'BLOCKED', 'RUNNING', 'WAITING', 'COMPLETED', 'FAILED'] as const;
/** A node's status. */
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** The two conversations every node has: one about splitting it, one about concluding it. */
export type ConversationKind = 'DECOMPOSE' | 'CONCLUDE';
/** Who wrote a message. */
export type MessageRole = 'USER' | 'ASSISTANT' | 'SYSTEM';
/** What a message is: plain text, retrieval results with sources, or a notice (blocked, offline, failed). */
export type MessageKind = 'TEXT' | 'RAG' | 'NOTICE';
/** The language a map's agents write in. */
export type Language = 'zh' | 'en';
