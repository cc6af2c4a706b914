import type { Language } from '../../domain/enums.ts';
import { isAgentError } from '../../errors/agent-error.ts';
import {
  DOMAIN_KNOWLEDGE_TOOL_ID,
  type KnowledgePort,
  type KnowledgeResult,
  type KnowledgeSearchAnswer,
} from '../../ports/knowledge-port.ts';
import type { ModelPort, OfflineHint } from '../../ports/model-port.ts';
import { chooseToolMessages, type ToolChoosingAgent } from '../../prompts/choose-tool.ts';
import { type ToolChoice, ToolChoiceSchema } from '../../schemas/tool-choice.ts';

/** The most characters of a tool's text answer kept in one result. */
export const MAX_TOOL_ANSWER = 4000;

/** What the model chose and what the chosen tool gave: results with sources, and a notice per failure. */
export interface ToolCallAnswer extends KnowledgeSearchAnswer {
  /** The id of the tool called. */
  tool: string;
  choice: ToolChoice;
}

/** What {@link chooseAndCallTool} needs besides the ports. */
export interface ToolCallRequest {
  agent: ToolChoosingAgent;
  language: Language;
  /** The node's context, shown to the model with the tools. */
  context: string;
  offlineHint: OfflineHint;
  signal?: AbortSignal;
}

/** Whether `knowledge` offers tools the model can choose (`domain_knowledge` or tools it can call). */
export function offersTools(knowledge: KnowledgePort | undefined): boolean {
  return Boolean(knowledge?.listTools && (knowledge.callTool || knowledge.domainKnowledge));
}

const cut = (text: string) => (text.length > MAX_TOOL_ANSWER ? `${text.slice(0, MAX_TOOL_ANSWER - 1)}…` : text);

async function callDomainKnowledge(knowledge: KnowledgePort, args: Record<string, unknown>, signal?: AbortSignal) {
  const domain = typeof args.domain === 'string' ? args.domain.trim() : '';
  if (!domain) return { results: [], notices: [{ message: 'domain_knowledge was chosen without a domain.' }] };
  const topic = typeof args.topic === 'string' && args.topic.trim() ? args.topic : undefined;
  return knowledge.domainKnowledge!(domain, topic, signal);
}

async function callOther(
  knowledge: KnowledgePort,
  id: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<KnowledgeSearchAnswer> {
  try {
    const answer = await knowledge.callTool!(id, args, signal);
    const result: KnowledgeResult = { title: '', content: cut(answer.content), sources: answer.sources };
    return { results: answer.content ? [result] : [], notices: [] };
  } catch (error) {
    if (!isAgentError(error, 'KNOWLEDGE_UNAVAILABLE')) throw error;
    return { results: [], notices: [{ message: `${id}: ${error.message}` }] };
  }
}

/**
 * Asks the model which of the port's tools (if any) would help `agent` and calls it: `domain_knowledge`
 * through the port's `domainKnowledge`, so its passages keep their own sources; any other tool through
 * `callTool`, its answer one result with the tool as source. A tool that fails becomes a notice, never an
 * error. Returns null when the port lists no tool or the model chose none (the offline model never does).
 */
export async function chooseAndCallTool(
  knowledge: KnowledgePort,
  model: ModelPort,
  request: ToolCallRequest,
): Promise<ToolCallAnswer | null> {
  const tools = (await knowledge.listTools?.()) ?? [];
  if (tools.length === 0) return null;
  const { value: choice } = await model.structured({
    agent: request.agent,
    schema: ToolChoiceSchema,
    schemaName: 'tool_choice',
    messages: chooseToolMessages(request.language, request.context, tools, request.agent),
    offlineHint: request.offlineHint,
    signal: request.signal,
  });
  const tool = tools.find((t) => t.id === choice.tool);
  if (!tool) return null;
  const answer =
    tool.id === DOMAIN_KNOWLEDGE_TOOL_ID && knowledge.domainKnowledge
      ? await callDomainKnowledge(knowledge, choice.arguments, request.signal)
      : knowledge.callTool
        ? await callOther(knowledge, tool.id, choice.arguments, request.signal)
        : null;
  return answer && { ...answer, tool: tool.id, choice };
}
