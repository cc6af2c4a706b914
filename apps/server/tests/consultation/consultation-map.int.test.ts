import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAiModel } from '@thinkingmap/agent-core';
import {
  CONSULTATION,
  CREATE_MAP,
  CREATE_NODE,
  MAP,
  MAP_CONSULTATION_RECORDS,
  MAP_NOTES,
  NODE_DECISIONS,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  SEND_CONSULTATION_MESSAGE,
  START_CONSULTATION,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/agent-driver.ts';
import { type PlainResponse, send } from '../helpers/http-request.ts';
import { type SchemaAnswer, startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { callTool, connectOverHttp, type ToolData } from '../mcp/mcp-client.ts';

/** A GET with the path sent exactly as written (a URL object would resolve `..` before sending). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<PlainResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const providers = logicProviders;

const front = (reply: string, route = 'plan') => ({ reply, route });
const decision = (fields: object) => ({ next: 'FINISH', askUser: null, record: null, note: null, ...fields });
/** The first node id the planner's prompt lists under "The map's nodes". */
const firstNodeId = (prompt: string) => /The map's nodes:\n\[(\w+)\]/.exec(prompt)?.[1] ?? 'missing';

/**
 * Consultations tied to the map, through the GraphQL API, the notes route and MCP, on one server and one
 * scripted model (each test uses its own consultation and map). Turns are driven by the person's messages; the
 * script answers each agent by its schema and what its prompt says.
 */
describe.each(providers)('consultations and their map on %s', (provider) => {
  let server: TestServer;
  let notesDir: string;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  /** What the planner proposes next, keyed by the text of the person's latest message. */
  const script: Record<string, SchemaAnswer> = {
    front_reply: (_prompt, n) => front(`Reply ${n}`),
    problem_understanding: () => ({
      title: 'Tea shop online',
      problem: 'Selling handmade tea online',
      goal: 'A first online sale within a month',
      constraints: ['budget 500'],
    }),
    planner_decision: (prompt, n) => {
      if (prompt.includes('Person: break it down') && !prompt.includes('Done in this turn'))
        return decision({
          next: 'db_writer',
          proposal: {
            nodeId: firstNodeId(prompt),
            rationale: 'Two things decide it.',
            subQuestions: [
              { key: 'a', question: 'Which platform?', goal: 'Pick one', dependsOn: [] },
              { key: 'b', question: 'Which price?', goal: 'Set prices', dependsOn: ['a'] },
            ],
          },
        });
      if (prompt.includes('Person: remember the budget') && !prompt.includes('Done in this turn'))
        return decision({
          next: 'note_writer',
          record: { kind: 'FACT', content: 'the budget is 500', sourceMessageId: null },
          note: { path: 'money/budget', content: '# Budget\n\n- 500 in all\n' },
        });
      if (prompt.includes('Person: write the note') && !prompt.includes('Done in this turn'))
        return decision({ next: 'note_writer', note: { path: 'plan/first steps', content: `# First steps ${n}` } });
      return decision({});
    },
    consultation_summary: (_prompt, n) => ({ summary: `Summary ${n}: a tea shop online, budget 500.` }),
    strategy_decision: () => ({
      strategy: 'SEQUENTIAL',
      factors: [{ factor: 'order', assessment: 'platform first' }],
      reason: 'the price depends on the platform',
    }),
  };

  beforeAll(async () => {
    model = await startScriptedModel(script);
    notesDir = await mkdtemp(join(tmpdir(), 'tm-notes-'));
    const sdk = new OpenAiModel({ apiKey: 'k', baseURL: model.server.baseURL, model: 'scripted', timeoutMs: 20_000 });
    server = await startTestServer(provider, {
      model: sdk,
      app: { notesDir, consultationCompressAfter: 3 },
      // Questions expire fast: a gate must still wait for the person.
      runSettings: { questionTtlMs: 400 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
    if (notesDir) await rm(notesDir, { recursive: true, force: true });
  });

  const alice = () => server.connect(server.alice.token).client;
  const read = (id: string) => call(alice(), CONSULTATION, { id });
  const idle = (id: string, messages: number) =>
    eventually(async () => {
      const c = await read(id);
      return c.stage === 'CONSULTING' && !c.busy && c.messages.length >= messages && c;
    }, `consultation idle with ${messages} messages`);

  it('should start without a map, create the map from the first message and wait for the person to confirm the understanding, never by expiry', async () => {
    const client = alice();
    const started = await call(client, START_CONSULTATION, { input: {} });
    expect(started).toMatchObject({ mapId: null, stage: 'NEEDS_PROBLEM', understandingQuestion: null });
    const before = (await server.db.read.map.count()) as number;

    const first = await call(client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: started.id, text: 'I want to sell my handmade tea online' },
    });
    expect(first.consultation).toMatchObject({ stage: 'UNDERSTANDING' });
    const mapId = first.consultation.mapId as string;
    expect(await server.db.read.map.count()).toBe(before + 1);
    // The understanding asks the person; the question expires (TTL 400 ms) and still nothing goes on.
    // The question and its run are separate reads of one answer: on PostgreSQL they can straddle the expiry's
    // commit (one transaction), so wait until both show it.
    const asked = await eventually(async () => {
      const c = await read(started.id);
      return c.understandingQuestion?.status === 'EXPIRED' && c.understandingRun?.status !== 'WAITING' && c;
    }, 'the understanding question to expire and its run to pause');
    expect(asked.understandingQuestion).toMatchObject({ kind: 'confirm-understanding' });
    expect(asked.understandingRun?.status).toBe('PAUSED');
    expect(asked.stage).toBe('UNDERSTANDING');
    // A message sent meanwhile waits: the front agent has not been called for this consultation.
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: started.id, text: 'my budget is 500' } });
    const waiting = await read(started.id);
    expect(waiting.messages.map((m) => [m.role, m.planned])).toEqual([
      ['PERSON', false],
      ['PERSON', false],
    ]);
    const map = await call(client, MAP, { id: mapId });
    expect(map.nodes).toEqual([]);

    // The person confirms: the map gets its root, the consultation answers what it kept.
    await call(client, REPLY_TO_AGENT, {
      input: { requestId: asked.understandingQuestion?.requestId as string, accept: true },
    });
    const done = await idle(started.id, 3);
    expect(done.understandingQuestion).toBeNull();
    expect(done.messages.map((m) => m.role)).toEqual(['PERSON', 'PERSON', 'ASSISTANT']);
    expect(done.messages.every((m) => m.role !== 'PERSON' || m.planned)).toBe(true);
    const confirmed = await call(client, MAP, { id: mapId });
    expect(confirmed.nodes).toHaveLength(1);
    expect(confirmed.title).toBe('Tea shop online');
    // Bob sees none of it.
    const bob = server.connect(server.bob.token).client;
    expect((await attempt(bob, CONSULTATION, { id: started.id })).__typename).toBe('ForbiddenError');
  });

  it('should send a planner proposal through the decomposition review: nodes exist only after the person approves', async () => {
    const client = alice();
    const map = await call(client, CREATE_MAP, { input: { title: 'Tea shop' } });
    const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'How do I sell tea online?' } });
    const consultation = await call(client, START_CONSULTATION, { input: { mapId: map.id } });
    await call(client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: consultation.id, text: 'break it down' },
    });
    // The run's status, its question and the consultation's flag are read by one request in several statements: on
    // PostgreSQL (read committed) one read can straddle the settle's commit, so all three are waited for.
    const proposed = await eventually(async () => {
      const c = await read(consultation.id);
      const waiting = c.proposals[0]?.status === 'WAITING';
      return waiting && c.proposals[0]?.questions.some((q) => q.status === 'PENDING') && !c.busy && c;
    }, 'the proposal waiting at review');
    const run = proposed.proposals[0];
    expect(run).toMatchObject({ nodeId: root.id, status: 'WAITING' });
    const review = run?.questions.find((q) => q.status === 'PENDING');
    expect(review?.kind).toBe('review-decomposition');
    expect(review?.context).toMatchObject({
      proposal: { subQuestions: [{ question: 'Which platform?' }, { question: 'Which price?' }] },
    });
    // No model was asked for sub-questions: the planner's proposal is what the person reviews.
    expect(
      model.server.requests.some((r) => r.body.response_format?.json_schema?.name === 'sub_question_proposal'),
    ).toBe(false);
    expect(proposed.logs.map((l) => l.text)).toContain(
      'Sub-questions proposed for review: Which platform?; Which price?',
    );
    // The decomposition is the planner's choice, not the person's: the node's decisions (node panel, run view)
    // say so.
    const intents = await call(client, NODE_DECISIONS, { id: root.id, kind: 'INTENT' });
    expect(intents.decisions).toEqual([
      expect.objectContaining({
        choice: { intent: 'DECOMPOSE' },
        decidedBy: 'PLANNER',
        reason: "proposed by the consultation's planner",
      }),
    ]);
    // It expires (TTL 400 ms): still no node.
    await eventually(
      async () =>
        (await server.db.read.agentQuestion.findUnique({ where: { id: review?.requestId } }))?.status === 'EXPIRED',
      'the review to expire',
    );
    expect((await call(client, MAP, { id: map.id })).nodes).toHaveLength(1);
    // The person approves with an edit, in the existing review flow.
    await call(client, REVIEW_DECOMPOSITION, {
      input: {
        requestId: review?.requestId as string,
        accept: true,
        subQuestions: [
          { key: 'a', question: 'Which platform, Etsy or my own shop?', goal: 'Pick one', dependsOn: [] },
          { key: 'b', question: 'Which price?', goal: 'Set prices', dependsOn: ['a'] },
        ],
      },
    });
    const grown = await eventually(async () => {
      const m = await call(client, MAP, { id: map.id });
      return m.nodes.length === 3 && m;
    }, 'the approved sub-questions as nodes');
    expect(grown.nodes.map((n) => n.question).sort()).toEqual([
      'How do I sell tea online?',
      'Which platform, Etsy or my own shop?',
      'Which price?',
    ]);
  });

  it('should download a note as an attachment to its owner only, and refuse traversal, absolute paths and symbolic links', async () => {
    const client = alice();
    const map = await call(client, CREATE_MAP, { input: { title: 'Notes' } });
    const consultation = await call(client, START_CONSULTATION, { input: { mapId: map.id } });
    await call(client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: consultation.id, text: 'write the note' },
    });
    const done = await eventually(async () => {
      const c = await read(consultation.id);
      return !c.busy && c.notes.length === 1 && c;
    }, 'the note');
    const note = done.notes[0];
    expect(note).toMatchObject({ path: 'plan/first steps.md', downloadUrl: `/notes/${map.id}/plan/first%20steps.md` });
    const base = server.app.url();
    const auth = { authorization: `Bearer ${server.alice.token}` };

    const ok = await send(`${base}${note?.downloadUrl}`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatch(/^# First steps \d+$/);
    expect(ok.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(ok.headers['content-disposition']).toBe(
      `attachment; filename="first steps.md"; filename*=UTF-8''first%20steps.md`,
    );

    const bob = await send(`${base}${note?.downloadUrl}`, { headers: { authorization: `Bearer ${server.bob.token}` } });
    expect(bob.status).toBe(403);
    expect(JSON.parse(bob.body)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await send(`${base}${note?.downloadUrl}`)).status).toBe(401);

    // A symbolic link placed in the map's folder, pointing outside it.
    const outside = join(notesDir, 'outside.md');
    await writeFile(outside, 'secret');
    await mkdir(join(notesDir, map.id), { recursive: true });
    await symlink(outside, join(notesDir, map.id, 'link.md'));
    const refused = {
      traversal: `/notes/${map.id}/../outside.md`,
      encodedTraversal: `/notes/${map.id}/%2e%2e/outside.md`,
      absolute: `/notes/${map.id}/%2Fetc%2Fpasswd`,
      symlink: `/notes/${map.id}/link.md`,
    };
    for (const [why, path] of Object.entries(refused)) {
      const answer = await rawGet(base, path, auth);
      expect(answer.status, why).toBe(400);
      const body = JSON.parse(answer.body);
      expect(body.error, why).toMatchObject({ code: 'VALIDATION', field: 'path' });
      expect(body.error.message, why).toMatch(/note path refused: (it leaves the notes folder|absolute|symbolic)/);
      expect(answer.body).not.toContain('secret');
    }
    const missing = await send(`${base}/notes/${map.id}/nope.md`, { headers: auth });
    expect(missing.status).toBe(404);
  });

  it('should summarise earlier messages after the configured turns and keep every prompt the model received bounded', async () => {
    const client = alice();
    const map = await call(client, CREATE_MAP, { input: { title: 'Long talk' } });
    const consultation = await call(client, START_CONSULTATION, { input: { mapId: map.id } });
    const long = (turn: number) => `Turn ${turn}: ${'a detail the person gives at length. '.repeat(150)}`;
    const first = model.server.requests.length;
    const turns = 8;
    for (let turn = 1; turn <= turns; turn++) {
      await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: consultation.id, text: long(turn) } });
      await idle(consultation.id, turn * 2);
    }
    const mine = model.server.requests.slice(first);
    const promptOf = (r: (typeof mine)[number]) => (r.body.messages ?? []).map((m) => m.content).join('\n');
    const fronts = mine.filter((r) => r.body.response_format?.json_schema?.name === 'front_reply').map(promptOf);
    const planners = mine.filter((r) => r.body.response_format?.json_schema?.name === 'planner_decision').map(promptOf);
    expect(fronts).toHaveLength(turns);
    const done = await read(consultation.id);
    const written = done.messages.reduce((sum, m) => sum + m.text.length, 0);
    expect(written).toBeGreaterThan(40_000);
    // Every message is kept; the earlier ones are marked summarised and prompts carry the summary instead.
    expect(done.messages).toHaveLength(turns * 2);
    expect(done.messages.filter((m) => m.compressed).length).toBeGreaterThan(turns);
    expect(done.summary).toMatch(/^Summary \d+: a tea shop online, budget 500\.$/);
    for (const prompt of [...fronts, ...planners]) expect(prompt.length).toBeLessThan(16_000);
    const last = fronts.at(-1) ?? '';
    expect(last).toContain(`Summary of earlier messages:\n${done.summary}`);
    expect(last).not.toContain('Turn 1:');
    expect(last).toContain(`Turn ${turns}:`);
    expect(planners.at(-1)).toContain(`Turn ${turns}:`);
  });

  it('should start, continue and read a consultation over MCP, and wait for the stored front reply', async () => {
    const mcp = await connectOverHttp(server.app.url(), server.alice.token);
    try {
      const map = await call(alice(), CREATE_MAP, { input: { title: 'Over MCP' } });
      const started = await callTool(mcp, 'start_consultation', { mapId: map.id, strategy: 'ENQUEUE' });
      expect(started).toMatchObject({ mapId: map.id, stage: 'CONSULTING', strategy: 'ENQUEUE' });
      const sent = await callTool(mcp, 'send_consultation_message', {
        consultationId: started.id,
        text: 'hello from an agent',
      });
      expect(sent).toMatchObject({ reply: expect.stringMatching(/^Reply \d+$/), stage: 'CONSULTING' });
      expect(sent.messages.map((m: ToolData) => m.role)).toEqual(['PERSON', 'ASSISTANT']);
      expect(sent).toHaveProperty('plan');
      expect(sent).toHaveProperty('step');
      const read = await callTool(mcp, 'get_consultation', { consultationId: started.id });
      expect(read.messages.map((m: ToolData) => m.text)).toEqual(['hello from an agent', sent.reply]);

      // The records and notes go with the map's Markdown (the resource and get_map) and its JSON summary.
      await callTool(mcp, 'send_consultation_message', { consultationId: started.id, text: 'remember the budget' });
      await idle(started.id, 4);
      const resource = await mcp.readResource({ uri: `thinkingmap://maps/${map.id}` });
      const content = resource.contents[0];
      const text = content && 'text' in content ? content.text : '';
      expect(text).toContain(
        `## Consultation records\n\n### Consultation (\`${started.id}\`)\n\n- **Fact:** the budget is 500`,
      );
      expect(text).toContain('## Notes\n\n### money/budget.md\n\n```markdown\n# Budget\n\n- 500 in all\n```');
      const whole = await callTool(mcp, 'get_map', { mapId: map.id });
      expect(whole.notes).toEqual([{ path: 'money/budget.md', content: '# Budget\n\n- 500 in all\n' }]);
      // The web export reads the same through GraphQL.
      const notes = await call(alice(), MAP_NOTES, { mapId: map.id });
      expect(notes.notes).toEqual([{ path: 'money/budget.md', content: '# Budget\n\n- 500 in all\n' }]);
      const records = await call(alice(), MAP_CONSULTATION_RECORDS, { mapId: map.id });
      expect(records.data.flatMap((c) => c.records.map((r) => r.content))).toEqual(['the budget is 500']);
      expect((await attempt(server.connect(server.bob.token).client, MAP_NOTES, { mapId: map.id })).__typename).toBe(
        'ForbiddenError',
      );
      expect(whole.consultations).toEqual([
        { id: started.id, records: [expect.objectContaining({ kind: 'FACT', content: 'the budget is 500' })] },
      ]);

      // Without a map: the first message's answer is the understanding to confirm.
      const fresh = await callTool(mcp, 'start_consultation', {});
      expect(fresh).toMatchObject({ stage: 'NEEDS_PROBLEM', mapId: null });
      const problem = await callTool(mcp, 'send_consultation_message', {
        consultationId: fresh.id,
        text: 'I want to sell tea',
      });
      expect(problem).toMatchObject({ stage: 'UNDERSTANDING', reply: null });
      expect(problem.understandingQuestion).toMatchObject({ kind: 'confirm-understanding' });
      const stranger = await connectOverHttp(server.app.url(), server.bob.token);
      const refused = await stranger.callTool({ name: 'get_consultation', arguments: { consultationId: fresh.id } });
      expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN' } } });
      await stranger.close();
    } finally {
      await mcp.close();
    }
  });
});
