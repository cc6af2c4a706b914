import { AGENT_MODEL, CREATE_MAP, MAP, REPLY_TO_AGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Question, waitForQuestion } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

type Restatement = { title: string; problem: string; goal: string; constraints: string[] };
const restatementOf = (question: Question) => (question.context as { understanding: Restatement }).understanding;

/** Answers a confirm-understanding question with a correction and returns the next restatement's question. */
async function correct(client: Client, mapId: string, question: Question, text: string): Promise<Question> {
  await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, text } });
  return eventually(async () => {
    const next = await waitForQuestion(client, mapId, { kind: 'confirm-understanding' });
    return next.requestId !== question.requestId ? next : null;
  }, 'the corrected restatement');
}

/** Confirms and waits for the root node; returns the map as it was recorded. */
async function confirm(client: Client, mapId: string, question: Question) {
  await call(client, REPLY_TO_AGENT, { input: { requestId: question.requestId, accept: true } });
  return eventually(async () => {
    const map = await call(client, MAP, { id: mapId });
    return map.nodes.length === 1 ? map : null;
  }, 'the root node');
}

describe.each(providers)('problem understanding on the embedded defaults (no model connected) on %s', (provider) => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer(provider);
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server?.close());

  it('should restate the title, problem, goal and constraints the person gave, and apply each correction to its field', async () => {
    const given = {
      title: 'Second café',
      problem: 'Should we open a second café next year?',
      goal: 'Decide by June',
      constraints: ['budget under 50k'],
    };
    const map = await call(client, CREATE_MAP, { input: given });
    let question = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
    expect(restatementOf(question)).toEqual(given);

    question = await correct(client, map.id, question, 'The goal is decide by May. Add a constraint: no loans.');
    expect(restatementOf(question)).toEqual({
      ...given,
      goal: 'decide by May',
      constraints: ['budget under 50k', 'no loans'],
    });

    question = await correct(
      client,
      map.id,
      question,
      'Actually the problem is where to open the second café? The title is Café site. Remove the constraint no loans',
    );
    const final = {
      title: 'Café site',
      problem: 'where to open the second café?',
      goal: 'decide by May',
      constraints: ['budget under 50k'],
    };
    expect(restatementOf(question)).toEqual(final);
    expect(JSON.stringify(question.context)).not.toMatch(/noted|offline model|OPENAI/);

    const recorded = await confirm(client, map.id, question);
    expect(recorded).toMatchObject(final);
    expect(recorded.nodes[0]).toMatchObject({
      question: final.problem,
      goal: final.goal,
      constraints: final.constraints,
    });
  });

  it('should do the same for a Chinese problem with Chinese corrections', async () => {
    const map = await call(client, CREATE_MAP, {
      input: { problem: '要不要开第二家咖啡店？', goal: '六月前决定', constraints: ['预算五十万'] },
    });
    expect(map.language).toBe('zh');
    let question = await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
    expect(restatementOf(question)).toEqual({
      title: '要不要开第二家咖啡店？',
      problem: '要不要开第二家咖啡店？',
      goal: '六月前决定',
      constraints: ['预算五十万'],
    });

    question = await correct(client, map.id, question, '目标是五月前决定。加一个约束：不贷款');
    expect(restatementOf(question)).toMatchObject({ goal: '五月前决定', constraints: ['预算五十万', '不贷款'] });
    question = await correct(client, map.id, question, '问题其实是第二家店开在哪里？标题改为选址。去掉约束不贷款');
    const final = { title: '选址', problem: '第二家店开在哪里？', goal: '五月前决定', constraints: ['预算五十万'] };
    expect(restatementOf(question)).toEqual(final);
    expect(JSON.stringify(question.context)).not.toMatch(/补充：|离线模型/);

    expect(await confirm(client, map.id, question)).toMatchObject(final);
  });

  it('should describe the offline assistant in words a person reads', async () => {
    const model = await call(client, AGENT_MODEL, {});
    expect(model).toMatchObject({ offline: true });
    expect(model.label).not.toMatch(/OPENAI|API_KEY|BASE_URL|http/);
  });
});

describe.each(providers)('problem understanding with a model on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    model = await startScriptedModel({
      problem_understanding: () => ({
        title: 'Café',
        problem: 'Open a second café?',
        goal: 'Decide by June',
        constraints: ['budget under 50k'],
      }),
    });
    server = await startTestServer(provider, { model: model.model });
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it("should show the model the person's own title, goal and constraints", async () => {
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, {
      input: {
        title: 'Café',
        problem: 'Open a second café?',
        goal: 'Decide by June',
        constraints: ['budget under 50k'],
      },
    });
    await waitForQuestion(client, map.id, { kind: 'confirm-understanding' });
    const prompt = model.server.requests
      .at(-1)!
      .body.messages!.map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('Goal the person gave: Decide by June');
    expect(prompt).toContain('Constraints the person gave:\n- budget under 50k');
    expect(prompt).toContain('Title the person gave: Café');
  });
});
