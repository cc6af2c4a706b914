import type { Language } from '../domain/enums.ts';
import type { KnowledgeSource } from './knowledge-port.ts';

/** The skills a divergent task can use; the planner is offered only those a {@link DivergentSkills} has. */
export const DIVERGENT_SKILL_NAMES = [
  'librarySearch',
  'webSearch',
  'commonQnA',
  'generateDoc',
  'codeArtifacts',
] as const;
/** One of {@link DIVERGENT_SKILL_NAMES}. */
export type DivergentSkillName = (typeof DIVERGENT_SKILL_NAMES)[number];

/** A finished task's result as later tasks (a document's citations) see it. */
export interface CitableResult {
  /** The task's citation key (`L1.T2`: level 1, task 2). */
  key: string;
  name: string;
  text: string;
}

/** One task handed to a skill. */
export interface SkillRequest {
  /** The citation key of the task ({@link CitableResult.key}). */
  key: string;
  name: string;
  query: string;
  skill: DivergentSkillName;
  language: Language;
  /** The person's intent: the question and goal the session explores. */
  intent: string;
  /** The summary the task was planned from. */
  summary: string;
  /** Successful results of earlier levels, for documents that cite them. */
  earlier: CitableResult[];
  signal?: AbortSignal;
  /** Streams the result's text as it is written. */
  onToken?: (text: string) => void;
}

/** What a skill produced. */
export interface SkillResult {
  /** The result as Markdown (a code artifact is a fenced block in it). */
  text: string;
  /** Where searched content came from (library and web search). */
  sources: KnowledgeSource[];
  /** For code artifacts: the code's language and the code itself. */
  code?: { language: string; code: string };
  /** Keys of the earlier results a document cites. */
  cites?: string[];
}

/**
 * The skills divergent tasks run. `available()` lists the skills configured on this server (web search only
 * when the operator configured a provider, library search only with knowledge servers); `run` throws an
 * error whose message says why when a task cannot be done, and the task is then recorded failed.
 */
export interface DivergentSkills {
  available(): DivergentSkillName[];
  /** Why a skill is not offered, in the given language (for the UI), or null when it is. */
  unavailableReason(skill: DivergentSkillName, language: Language): string | null;
  run(request: SkillRequest): Promise<SkillResult>;
}
