import { describe, expect, it } from 'vitest';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

/** A process-node run's row on a node. */
const runRow = (mapId: string, nodeId: string, status: 'WAITING' | 'PAUSED' | 'COMPLETED') => ({
  mapId,
  nodeId,
  agent: 'PROCESS_NODE' as const,
  threadId: crypto.randomUUID(),
  input: {},
  status,
});

describe.each(providers)('run log on %s', (provider) => {
  const database = useTestDatabase(provider);

  /** A map with a node and a run on it that decided under key `k1`. */
  async function runWithDecision() {
    const { db } = database;
    return db.write(async (tx) => {
      const user = await tx.user.create({ data: { name: 'runs' } });
      const map = await tx.map.create({ data: { ownerId: user.id, title: 'runs', constraints: [] } });
      const node = await tx.node.create({
        data: { mapId: map.id, question: 'Why?', constraints: [], status: 'RUNNING', intent: 'CONCLUDE' },
      });
      const run = await tx.agentRun.create({ data: runRow(map.id, node.id, 'WAITING') });
      await tx.decision.create({
        data: {
          runId: run.id,
          mapId: map.id,
          nodeId: node.id,
          kind: 'INTENT',
          choice: { intent: 'CONCLUDE' },
          reason: 'asked',
          decidedBy: 'PERSON',
          key: 'k1',
        },
      });
      return { map, node, run };
    });
  }

  it('should read a node’s map and agent state as Prisma does, inside a write', async () => {
    const { db } = database;
    const { node } = await runWithDecision();
    const [fromLog, fromPrisma] = await db.write(async (tx) => [
      await db.runLog.nodeState(tx, node.id),
      await tx.node.findUnique({
        where: { id: node.id },
        select: { mapId: true, status: true, intent: true, strategy: true },
      }),
    ]);
    expect(fromLog).toEqual(fromPrisma);
    expect(fromLog).toEqual({ mapId: node.mapId, status: 'RUNNING', intent: 'CONCLUDE', strategy: null });
    expect(await db.write((tx) => db.runLog.nodeState(tx, 'no-such-node'))).toBeNull();
  });

  it('should tell a run’s map and node, whether it decided under a key, and its status', async () => {
    const { db } = database;
    const { map, node, run } = await runWithDecision();
    expect(await db.write((tx) => db.runLog.runDecision(tx, run.id, 'k1'))).toEqual({
      mapId: map.id,
      nodeId: node.id,
      decided: true,
    });
    expect(await db.write((tx) => db.runLog.runDecision(tx, run.id, 'k2'))).toEqual({
      mapId: map.id,
      nodeId: node.id,
      decided: false,
    });
    expect(await db.write((tx) => db.runLog.runDecision(tx, 'no-such-run', 'k1'))).toBeNull();
    expect(await db.write((tx) => db.runLog.runStatus(tx, run.id))).toBe('WAITING');
    expect(await db.write((tx) => db.runLog.runStatus(tx, 'no-such-run'))).toBeNull();
  });

  it('should tell whether a run stored the question of an interrupt, and a question’s state with its run’s', async () => {
    const { db } = database;
    const { map, node, run } = await runWithDecision();
    const question = await db.write((tx) =>
      tx.agentQuestion.create({
        data: {
          runId: run.id,
          mapId: map.id,
          nodeId: node.id,
          interruptId: 'i1',
          kind: 'review-conclusion',
          question: 'Keep it?',
          context: {},
          expiresAt: new Date(Date.now() + 60_000),
        },
      }),
    );
    expect(await db.write((tx) => db.runLog.hasQuestion(tx, run.id, 'i1'))).toBe(true);
    expect(await db.write((tx) => db.runLog.hasQuestion(tx, run.id, 'i2'))).toBe(false);
    expect(await db.write((tx) => db.runLog.questionState(tx, question.id))).toEqual({
      status: 'PENDING',
      kind: 'review-conclusion',
      runStatus: 'WAITING',
    });
    expect(await db.write((tx) => db.runLog.questionState(tx, 'no-such-question'))).toBeNull();
  });

  it('should list the threads of finished runs beyond the latest ones in the order Prisma gives', async () => {
    const { db } = database;
    const { map, node } = await runWithDecision();
    const ended = [3, 1, 4, 2, 5].map((minute, i) => ({
      mapId: map.id,
      nodeId: node.id,
      agent: 'PROCESS_NODE' as const,
      threadId: `ended-${map.id}-${i}`,
      input: {},
      status: i % 2 ? ('FAILED' as const) : ('COMPLETED' as const),
      finishedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)),
    }));
    await db.write((tx) => tx.agentRun.createMany({ data: ended }));
    const fromPrisma = await db.read.agentRun.findMany({
      where: { mapId: map.id, status: { in: ['COMPLETED', 'FAILED'] } },
      orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
      skip: 1,
      take: 3,
      select: { threadId: true },
    });
    const fromLog = await db.write((tx) => db.runLog.finishedThreads(tx, map.id, 1, 3));
    expect(fromLog).toEqual(fromPrisma.map((r) => r.threadId));
    expect(fromLog).toEqual([2, 0, 3].map((i) => `ended-${map.id}-${i}`));
  });
  it('should find a node’s conversation with its map, and its latest message not deleted, as a new message answers it', async () => {
    const { db } = database;
    const { map, node } = await runWithDecision();
    const conversation = await db.write((tx) =>
      tx.conversation.create({ data: { nodeId: node.id, mapId: map.id, kind: 'CONCLUDE' } }),
    );
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
    const message = (id: string, minute: number, deleted = false) => ({
      id: `${id}-${map.id}`,
      conversationId: conversation.id,
      mapId: map.id,
      role: 'USER' as const,
      content: id,
      createdAt: at(minute),
      ...(deleted ? { deletedAt: at(9) } : {}),
    });
    expect(await db.write((tx) => db.runLog.conversation(tx, node.id, 'CONCLUDE'))).toEqual({
      id: conversation.id,
      mapId: map.id,
      latestMessageId: null,
    });
    // Two at the same time (the later id wins), one older, and a newer one deleted.
    await db.write((tx) =>
      tx.message.createMany({
        data: [message('a', 1), message('c', 2), message('b', 2), message('d', 3, true)],
      }),
    );
    expect(await db.write((tx) => db.runLog.conversation(tx, node.id, 'CONCLUDE'))).toEqual({
      id: conversation.id,
      mapId: map.id,
      latestMessageId: `c-${map.id}`,
    });
    expect(await db.write((tx) => db.runLog.conversation(tx, node.id, 'DECOMPOSE'))).toBeNull();
  });

  it('should list a node’s dependencies in their order among siblings, and the nodes that depend on it', async () => {
    const { db } = database;
    const { map, node } = await runWithDecision();
    const [first, second, waiting] = await db.write(async (tx) => {
      const child = (question: string, position: number, status: 'READY' | 'COMPLETED' = 'READY') =>
        tx.node.create({ data: { mapId: map.id, parentId: node.id, question, constraints: [], position, status } });
      return [await child('first', 0, 'COMPLETED'), await child('second', 1), await child('waits', 2)];
    });
    await db.write((tx) =>
      tx.dependency.createMany({
        data: [
          { mapId: map.id, nodeId: waiting.id, dependsOnId: second.id },
          { mapId: map.id, nodeId: waiting.id, dependsOnId: first.id },
        ],
      }),
    );
    expect(await db.write((tx) => db.runLog.dependenciesOf(tx, waiting.id))).toEqual([
      { id: first.id, question: 'first', status: 'COMPLETED', position: 0 },
      { id: second.id, question: 'second', status: 'READY', position: 1 },
    ]);
    expect(await db.write((tx) => db.runLog.dependentsOf(tx, first.id))).toEqual([waiting.id]);
    expect(await db.write((tx) => db.runLog.dependentsOf(tx, waiting.id))).toEqual([]);
  });

  it('should list a node’s active and paused runs, and count a run’s questions still waiting', async () => {
    const { db } = database;
    const { map, node, run } = await runWithDecision();
    const paused = await db.write((tx) => tx.agentRun.create({ data: runRow(map.id, node.id, 'PAUSED') }));
    await db.write((tx) => tx.agentRun.create({ data: runRow(map.id, node.id, 'COMPLETED') }));
    const runs = await db.write((tx) => db.runLog.activeOrPausedRuns(tx, node.id));
    expect(runs.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { id: paused.id, mapId: map.id, agent: 'PROCESS_NODE', status: 'PAUSED' },
      { id: run.id, mapId: map.id, agent: 'PROCESS_NODE', status: 'WAITING' },
    ]);
    const question = (interruptId: string, status: 'PENDING' | 'ANSWERED') => ({
      runId: run.id,
      mapId: map.id,
      nodeId: node.id,
      interruptId,
      kind: 'clarify',
      question: 'Which market?',
      context: {},
      status,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await db.write((tx) => db.runLog.pendingQuestions(tx, run.id))).toBe(0);
    await db.write((tx) =>
      tx.agentQuestion.createMany({
        data: [question('i1', 'PENDING'), question('i2', 'ANSWERED'), question('i3', 'PENDING')],
      }),
    );
    expect(await db.write((tx) => db.runLog.pendingQuestions(tx, run.id))).toBe(2);
  });

  it('should change a node’s agent state only when it differs, returning the node as Prisma reads it', async () => {
    const { db } = database;
    const { map, node } = await runWithDecision();
    const change = (nodeId: string, mapId: string, data: Parameters<typeof db.runLog.changeNodeState>[3]) =>
      db.write((tx) => db.runLog.changeNodeState(tx, nodeId, mapId, data));
    const blocked = await change(node.id, map.id, { status: 'BLOCKED', statusReason: 'waits for “first”' });
    expect(blocked).toEqual(await db.read.node.findUnique({ where: { id: node.id } }));
    expect(blocked).toMatchObject({ status: 'BLOCKED', statusReason: 'waits for “first”', intent: 'CONCLUDE' });
    expect(blocked!.version).toBe(node.version);
    expect(blocked!.updatedAt.getTime()).toBeGreaterThanOrEqual(node.updatedAt.getTime());
    // The same status again changes nothing, its reason included.
    expect(await change(node.id, map.id, { status: 'BLOCKED', statusReason: 'other' })).toBeNull();
    expect(await change(node.id, map.id, { intent: 'CONCLUDE' })).toBeNull();
    const decomposing = await change(node.id, map.id, { intent: 'DECOMPOSE' });
    expect(decomposing).toMatchObject({ status: 'BLOCKED', statusReason: 'waits for “first”', intent: 'DECOMPOSE' });
    // A strategy never set (null) differs from any strategy.
    const running = await change(node.id, map.id, { status: 'RUNNING', statusReason: null, strategy: 'SEQUENTIAL' });
    expect(running).toEqual(await db.read.node.findUnique({ where: { id: node.id } }));
    expect(running).toMatchObject({
      status: 'RUNNING',
      statusReason: null,
      intent: 'DECOMPOSE',
      strategy: 'SEQUENTIAL',
    });
    expect(await change(node.id, map.id, { strategy: 'SEQUENTIAL' })).toBeNull();
    expect(await change(node.id, 'another-map', { status: 'COMPLETED' })).toBeNull();
    expect(await change('no-such-node', map.id, { status: 'RUNNING' })).toBeNull();
    expect(await db.read.node.findUnique({ where: { id: node.id } })).toEqual(running);
  });

  it('should read the choice of the model’s latest decision of a kind on a node', async () => {
    const { db } = database;
    const { map, node, run } = await runWithDecision();
    const decide = (key: string, decidedBy: 'MODEL' | 'PERSON', intent: string, at: number) =>
      db.write((tx) =>
        tx.decision.create({
          data: {
            runId: run.id,
            mapId: map.id,
            nodeId: node.id,
            kind: 'INTENT',
            choice: { intent },
            reason: 'why',
            decidedBy,
            key,
            createdAt: new Date(at),
          },
        }),
      );
    expect(await db.write((tx) => db.runLog.latestModelChoice(tx, node.id, 'INTENT'))).toBeNull();
    await decide('m1', 'MODEL', 'EXPLORE', 1_000);
    await decide('m2', 'MODEL', 'DECOMPOSE', 3_000);
    await decide('p1', 'PERSON', 'CLARIFY', 4_000);
    expect(await db.write((tx) => db.runLog.latestModelChoice(tx, node.id, 'INTENT'))).toEqual({ intent: 'DECOMPOSE' });
    expect(await db.write((tx) => db.runLog.latestModelChoice(tx, node.id, 'STRATEGY'))).toBeNull();
  });

  it('should settle a paused run’s row: its status, its tokens added, its reservation released, unless cancelled', async () => {
    const { db } = database;
    const { run } = await runWithDecision();
    await db.write((tx) =>
      tx.agentRun.update({
        where: { id: run.id },
        data: { status: 'RUNNING', promptTokens: 5, completionTokens: 7, tokensReserved: 100 },
      }),
    );
    const spent = { promptTokens: 10, completionTokens: 20 };
    expect(await db.write((tx) => db.runLog.settleRunRow(tx, run.id, 'WAITING', spent))).toBe(true);
    const settled = await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(settled).toMatchObject({ status: 'WAITING', promptTokens: 15, completionTokens: 27, tokensReserved: 0 });
    expect(settled.tokensEstimated).toBe(false);
    // Tokens counted locally mark the run; a later settle with reported ones leaves the mark.
    const estimated = { promptTokens: 1, completionTokens: 1, estimated: true };
    await db.write((tx) => db.runLog.settleRunRow(tx, run.id, 'WAITING', estimated));
    await db.write((tx) => db.runLog.settleRunRow(tx, run.id, 'WAITING', { promptTokens: 1, completionTokens: 1 }));
    expect((await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).tokensEstimated).toBe(true);
    expect(settled.updatedAt.getTime()).toBeGreaterThanOrEqual(run.updatedAt.getTime());
    // A run the person cancelled stays as it is, and so does a run that ends then.
    const cancelled = await db.write((tx) =>
      tx.agentRun.update({ where: { id: run.id }, data: { status: 'CANCELLED' } }),
    );
    expect(cancelled).toMatchObject({ promptTokens: 17, completionTokens: 29 });
    expect(await db.write((tx) => db.runLog.settleRunRow(tx, run.id, 'WAITING', spent))).toBe(false);
    expect(await db.write((tx) => db.runLog.endRun(tx, run.id, { status: 'COMPLETED' }, spent))).toBeNull();
    expect(await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: 'CANCELLED',
      promptTokens: 17,
      completionTokens: 29,
    });
    expect(await db.write((tx) => db.runLog.settleRunRow(tx, 'no-such-run', 'WAITING', spent))).toBe(false);
  });

  it('should return a node, a resolved question and a resumed or ended run as they now are', async () => {
    const { db } = database;
    const { map, node } = await runWithDecision();
    /** A waiting run with a pending question. */
    const runAsking = () =>
      db.write(async (tx) => {
        const run = await tx.agentRun.create({ data: runRow(map.id, node.id, 'WAITING') });
        const question = await tx.agentQuestion.create({
          data: {
            runId: run.id,
            mapId: map.id,
            nodeId: node.id,
            interruptId: 'i',
            kind: 'REVIEW_CONCLUSION',
            question: 'OK?',
            context: { draft: '是' },
            expiresAt: new Date(60_000),
          },
        });
        return { run, question };
      });
    expect(await db.write((tx) => db.runLog.node(tx, node.id))).toEqual(
      await db.write((tx) => tx.node.findUnique({ where: { id: node.id } })),
    );
    expect(await db.write((tx) => db.runLog.node(tx, 'no-such-node'))).toBeNull();

    const mine = await runAsking();
    const answeredAt = new Date(90_000);
    const change = { status: 'ANSWERED' as const, answeredAt, reply: { action: 'accept', text: '好' } };
    const resolved = await db.write((tx) => db.runLog.resolveQuestion(tx, mine.question.id, ['PENDING'], change));
    expect(resolved).toEqual(await db.read.agentQuestion.findUnique({ where: { id: mine.question.id } }));
    expect(resolved).toMatchObject({ status: 'ANSWERED', answeredAt, reply: change.reply, context: { draft: '是' } });
    // A question no longer in a status it may move from is left as it is.
    expect(await db.write((tx) => db.runLog.resolveQuestion(tx, mine.question.id, ['PENDING'], change))).toBeNull();
    const expired = await db.write((tx) =>
      db.runLog.resolveQuestion(tx, mine.question.id, ['ANSWERED'], { status: 'EXPIRED' }),
    );
    expect(expired).toMatchObject({ status: 'EXPIRED', answeredAt, reply: change.reply });

    const owner = { ownerInstance: 'instance-b', ownerBoot: 'boot-2' };
    for (const running of [false, true]) {
      const resumed = await db.write((tx) => db.runLog.resumedRun(tx, mine.run.id, running, owner));
      expect(resumed).toEqual(await db.read.agentRun.findUnique({ where: { id: mine.run.id } }));
      expect(resumed?.status).toBe(running ? 'RUNNING' : 'WAITING');
    }
    // The instance that resumes it drives it from now on (its lease refreshes check these columns).
    expect(await db.read.agentRun.findUnique({ where: { id: mine.run.id } })).toMatchObject(owner);
    expect(await db.write((tx) => db.runLog.resumedRun(tx, 'no-such-run', true, owner))).toBeNull();

    const spent = { promptTokens: 12, completionTokens: 5 };
    const finishedAt = new Date(120_000);
    for (const end of [
      { status: 'COMPLETED' as const, output: { conclusion: '结论', n: [1, 2] }, finishedAt },
      { status: 'FAILED' as const, error: 'broke', errorCode: 'MODEL_ERROR', raw: '{"x":1}', finishedAt },
    ]) {
      // The failure's tokens were counted locally: it marks the run.
      const tokens = end.status === 'FAILED' ? { ...spent, estimated: true } : spent;
      const ended = await db.write((tx) => db.runLog.endRun(tx, mine.run.id, end, tokens));
      expect(ended).toEqual(await db.read.agentRun.findUnique({ where: { id: mine.run.id } }));
      expect(ended).toMatchObject({ ...end, tokensReserved: 0, tokensEstimated: end.status === 'FAILED' });
    }
    // The ends added their tokens to the run's own, and the failure kept the output of the completion before it.
    const ended = await db.read.agentRun.findUniqueOrThrow({ where: { id: mine.run.id } });
    expect(ended).toMatchObject({ promptTokens: 24, completionTokens: 10, output: { conclusion: '结论', n: [1, 2] } });
    expect(ended.updatedAt.getTime()).toBeGreaterThanOrEqual(mine.run.updatedAt.getTime());
  });
});
