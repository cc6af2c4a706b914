import {
  ADD_CONTEXT_ITEM,
  CREATE_MAP,
  POST_MESSAGE,
  PROCESS_NODE,
  REPLY_TO_AGENT,
  REVIEW_DECOMPOSITION,
  SEND_CONSULTATION_MESSAGE,
  START_CONSULTATION,
  START_DIVERGENT,
  type ThinkingMapClient,
  UPDATE_NODE,
  WORKSPACE_MAP,
} from '@thinkingmap/client';
import { call } from '@thinkingmap/client/testing';
import { MapWatch } from './map-watch.ts';
import type { Pace } from './pace.ts';

/** What the people did, for the minute lines. */
export interface WorkTally {
  operations: number;
  maps: number;
  consultations: number;
  divergent: number;
  errors: number;
  /** The first few errors, word for word. */
  errorSamples: string[];
}

/** One person at work: their API client, the language they write in, the shared pace. */
export interface Worker {
  api: ThinkingMapClient;
  language: 'en' | 'zh';
  pace: Pace;
  tally: WorkTally;
  running: () => boolean;
}

const PROBLEMS = {
  en: ['Should we open a second café next year?', 'How do we move our team to a four-day week?'],
  zh: ['明年要不要开第二家咖啡店？', '怎样把团队改成每周四天工作？'],
};

/**
 * Works through maps until told to stop, as a person in the web workspace does: a problem confirmed, the root
 * decomposed and approved, a few edits, each sub-question concluded and reviewed, the root concluded bottom-up; a
 * map read after each action; a consultation every fourth map and a divergent session every sixth.
 */
export async function workAsPerson(worker: Worker): Promise<void> {
  for (let round = 0; worker.running(); round++) {
    try {
      await workThroughMap(worker, round);
    } catch (error) {
      worker.tally.errors++;
      if (worker.tally.errorSamples.length < 5) worker.tally.errorSamples.push(String(error));
    }
  }
}

async function workThroughMap(worker: Worker, round: number): Promise<void> {
  const { api, language, tally } = worker;
  const op = async <T>(request: () => Promise<T>) => {
    await worker.pace.slot();
    tally.operations++;
    return request();
  };
  const problems = PROBLEMS[language];
  const problem = `${problems[round % problems.length]} (${round})`;
  const map = await op(() => call(api.client, CREATE_MAP, { input: { problem } }));
  const read = () => op(() => call(api.client, WORKSPACE_MAP, { id: map.id }));
  const watch = new MapWatch(api.ws, map.id);
  try {
    await read();
    const confirm = await watch.question('confirm-understanding');
    await op(() => call(api.client, REPLY_TO_AGENT, { input: { requestId: confirm, accept: true } }));
    const rootId = await watch.waitFor(
      (e) => (e.__typename === 'NodeCreated' && e.node.parentId === null ? e.node.id : undefined),
      'the root',
    );
    await read();
    const decomposing = await op(() => call(api.client, PROCESS_NODE, { nodeId: rootId, intent: 'DECOMPOSE' }));
    const proposal = await watch.question('review-decomposition', rootId);
    await op(() => call(api.client, REVIEW_DECOMPOSITION, { input: { requestId: proposal, accept: true } }));
    await watch.runEnded(decomposing.id);
    const children = (await read()).nodes.filter((node) => node.parentId === rootId);
    const first = children[0];
    if (first) {
      await op(() =>
        call(api.client, POST_MESSAGE, {
          input: { nodeId: first.id, conversation: 'DECOMPOSE', content: 'We talked to the bank.' },
        }),
      );
      await read();
      await op(() =>
        call(api.client, ADD_CONTEXT_ITEM, { nodeId: first.id, title: 'Notes', content: 'Rent is 4,000.' }),
      );
      await read();
      await op(() =>
        call(api.client, UPDATE_NODE, { input: { id: first.id, expectedVersion: first.version, goal: 'A number' } }),
      );
      await read();
    }
    for (const child of children) {
      await op(() => call(api.client, PROCESS_NODE, { nodeId: child.id, intent: 'CONCLUDE' }));
      const draft = await watch.question('review-conclusion', child.id);
      await op(() => call(api.client, REPLY_TO_AGENT, { input: { requestId: draft, accept: true } }));
      await read();
    }
    // The root's conclusion starts by itself once its last sub-question concluded.
    const rootDraft = await watch.question('review-conclusion', rootId);
    await op(() => call(api.client, REPLY_TO_AGENT, { input: { requestId: rootDraft, accept: true } }));
    await read();
    tally.maps++;
    if (round % 4 === 3) await consult(worker, watch, map.id, op);
    if (round % 6 === 5 && first) await explore(worker, watch, first.id, op);
  } finally {
    watch.close();
  }
}

type Op = <T>(request: () => Promise<T>) => Promise<T>;

/** A consultation on the map: one message, its turn to the end. */
async function consult(worker: Worker, watch: MapWatch, mapId: string, op: Op): Promise<void> {
  const { api } = worker;
  const consultation = await op(() => call(api.client, START_CONSULTATION, { input: { mapId } }));
  await op(() =>
    call(api.client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: consultation.id, text: 'What should I look at first?' },
    }),
  );
  await watch.waitFor(
    (e) =>
      e.__typename === 'ConsultationChanged' && e.consultationId === consultation.id && e.change === 'TURN_ENDED'
        ? true
        : undefined,
    'the consultation turn to end',
  );
  worker.tally.consultations++;
}

/** A short divergent session on a sub-question, to its end. */
async function explore(worker: Worker, watch: MapWatch, nodeId: string, op: Op): Promise<void> {
  const { api } = worker;
  const run = await op(() => call(api.client, START_DIVERGENT, { input: { nodeId, maxLevels: 2, maxParallel: 4 } }));
  await watch.runEnded(run.id);
  worker.tally.divergent++;
}
