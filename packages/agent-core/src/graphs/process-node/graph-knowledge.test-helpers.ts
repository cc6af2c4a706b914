import { AgentError } from '../../errors/agent-error.ts';
import type { KnowledgePort, KnowledgeResult, KnowledgeTool } from '../../ports/knowledge-port.ts';
import type { AgentName, StructuredRequest, StructuredResult } from '../../ports/model-port.ts';
import type { InMemoryStore } from '../../testing/in-memory-store.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';

/** A scripted model that also keeps the user prompt of every structured call, by agent. */
export class PromptRecordingModel extends ScriptedModel {
  readonly prompts: Partial<Record<AgentName, string[]>> = {};

  override async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const user = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    const prompts = this.prompts[request.agent] ?? [];
    prompts.push(user.join('\n'));
    this.prompts[request.agent] = prompts;
    return super.structured(request);
  }
}

/** A search hit with a file source. */
export const rent: KnowledgeResult = {
  title: 'Rent near campus',
  content: 'Shops near the university rent for 80 per square metre.',
  score: 0.9,
  sources: [{ title: 'rent.md:3-5', uri: 'file://rent.md' }],
};

/** A passage `domain_knowledge` answers with, from another file. */
export const footfall: KnowledgeResult = {
  title: 'Retail footfall',
  content: 'Cafés near campuses see 2,000 people a day in term time.',
  score: 1,
  sources: [{ title: 'retail.md:10-14', uri: 'file://retail.md' }],
};

/** How a port lists `domain_knowledge`. */
export const domainTool: KnowledgeTool = {
  id: 'domain_knowledge',
  description: 'The knowledge of a domain',
  inputSchema: { type: 'object', properties: { domain: { type: 'string' }, topic: { type: 'string' } } },
};

/** A knowledge port answering every search with `results` (or failing when `down`), counting searches. */
export function fakeKnowledge(results: KnowledgeResult[], extra: Partial<KnowledgePort> & { down?: boolean } = {}) {
  const port = {
    name: 'wiki',
    searches: 0,
    async search() {
      port.searches += 1;
      if (extra.down) throw new AgentError('KNOWLEDGE_UNAVAILABLE', 'wiki did not answer within 1000 ms');
      return results;
    },
    ...extra,
  };
  return port;
}

/** The messages of `kind` in the store, in posting order. */
export const messagesOf = (store: InMemoryStore, kind: string) => store.messages.filter((m) => m.kind === kind);
