import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '../ports/model-port.ts';
import { CapabilityRegistry, FULL_CAPABILITIES, type ModelCapabilities } from './endpoint-capabilities.ts';
import type { OpenAiModelConfig } from './model-config.ts';
import { OpenAiModel } from './openai-model.ts';

/** The three requests `pnpm model:check` sends to each endpoint. */
export type CheckName = 'structured' | 'stream' | 'tool';

/** What one request found. */
export interface CheckRow {
  /** The endpoint's base URL and model, and the agents that use them. */
  baseURL: string;
  model: string;
  agents: AgentName[];
  check: CheckName;
  /** `ok` as asked; `fallback` after the endpoint refused a feature; `failed` when nothing worked. */
  result: 'ok' | 'fallback' | 'failed';
  /** What is used: the structured output, how stream usage is counted, the tool choice; or the error. */
  used: string;
  /** Milliseconds to the first streamed token (stream), or to the whole answer. */
  ms: number;
}

/** The outcome of a check of every configured endpoint. */
export interface ModelCheck {
  rows: CheckRow[];
  /** False when some endpoint can answer neither structured nor streamed requests: the product cannot run. */
  usable: boolean;
}

const Answer = z.object({ answer: z.number() });
const ask = [{ role: 'user' as const, content: 'What is 2 + 3? Reply with the number only.' }];

/** Each distinct (endpoint, model) of the configuration, with one agent that reaches it and all that do. */
function targetsOf(config: OpenAiModelConfig) {
  const targets = new Map<string, { baseURL: string; model: string; agents: AgentName[] }>();
  for (const agent of AGENT_NAMES) {
    const baseURL = config.agentEndpoints?.[agent]?.baseURL ?? config.baseURL ?? 'https://api.openai.com/v1';
    const model = config.agentModels?.[agent] || config.model;
    const key = `${baseURL}|${model}|${config.agentEndpoints?.[agent]?.apiKey ?? ''}`;
    const target = targets.get(key) ?? { baseURL, model, agents: [] };
    target.agents.push(agent);
    targets.set(key, target);
  }
  return [...targets.values()];
}

const describe = (check: CheckName, caps: ModelCapabilities) =>
  check === 'structured' ? caps.structuredOutput : check === 'stream' ? `usage ${caps.streamUsage}` : caps.toolChoice;

const isFull = (check: CheckName, caps: ModelCapabilities) =>
  describe(check, caps) === describe(check, FULL_CAPABILITIES);

/**
 * Sends a tiny structured request, a streamed one and a tool call to every endpoint and model the
 * configuration uses (the per-agent ones included), through the model port itself, so what is found here is
 * what the product would fall back to. The configured overrides are where detection starts.
 */
export async function checkModel(config: OpenAiModelConfig): Promise<ModelCheck> {
  const rows: CheckRow[] = [];
  let usable = true;
  for (const target of targetsOf(config)) {
    const registry = new CapabilityRegistry(() => {});
    const model = new OpenAiModel({ ...config, maxRetries: 0 }, registry);
    const agent = target.agents[0] ?? 'front';
    const checks: [CheckName, (started: number) => Promise<number>][] = [
      [
        'structured',
        async () =>
          (await model.structured({ agent, messages: ask, schema: Answer, schemaName: 'model_check' })).value.answer,
      ],
      [
        'stream',
        async (started) => {
          let first = 0;
          await model.chat({ agent, messages: ask, onToken: () => (first ||= Date.now() - started) });
          return first;
        },
      ],
      [
        'tool',
        async () =>
          (
            await model.toolCall({
              agent,
              messages: ask,
              tool: { name: 'give_answer', description: 'Gives the answer.', schema: Answer },
            })
          ).value.answer,
      ],
    ];
    for (const [check, run] of checks) {
      const started = Date.now();
      try {
        const value = await run(started);
        const caps = model.capabilities(agent);
        const ms = check === 'stream' ? value : Date.now() - started;
        const result = isFull(check, caps) ? 'ok' : 'fallback';
        rows.push({ ...target, check, result, used: describe(check, caps), ms });
      } catch (error) {
        if (check !== 'tool') usable = false;
        rows.push({
          ...target,
          check,
          result: 'failed',
          used: error instanceof Error ? error.message : String(error),
          ms: Date.now() - started,
        });
      }
    }
  }
  return { rows, usable };
}

const WORDS = {
  en: { endpoint: 'endpoint', model: 'model', check: 'check', result: 'result', used: 'used', ms: 'ms (first token)' },
  zh: { endpoint: '端点', model: '模型', check: '检查', result: '结果', used: '采用', ms: '毫秒（首个词元）' },
} as const;

/** The rows as a short aligned table, with headings in `language`. */
export function formatModelCheck(check: ModelCheck, language: 'en' | 'zh' = 'en'): string {
  const w = WORDS[language];
  const table = [
    [w.endpoint, w.model, w.check, w.result, w.used, w.ms],
    ...check.rows.map((r) => [r.baseURL, r.model, r.check, r.result, r.used.slice(0, 80), String(r.ms)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
