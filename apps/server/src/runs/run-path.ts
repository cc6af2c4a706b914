import {
  checkpointsOfVisits,
  clip,
  type NodeContext,
  type ProposedSubQuestion,
  readStepCheckpoints,
  SubQuestionProposalSchema,
} from '@thinkingmap/agent-core';
import type { Prisma, ReadDb } from '@thinkingmap/db';
import { AgentStepPhase, isGateQuestion, QuestionKind, StepContextSource } from '@thinkingmap/db/enums';
import type { DecisionSnapshot } from '../commands/decision-snapshot.ts';
import { toMapEvent } from '../commands/event-log.ts';
import { propertyOf } from '../commands/input.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { toCheckpointRow } from './prisma-checkpoint-store.ts';

/**
 * How much of a step's state `runPath` carries: a path is read often while a run is watched, so each text is
 * cut (with an ellipsis) and each list capped, whatever the run wrote.
 */
export const STEP_STATE_LIMITS = {
  /** The step's answer (the message it posted or the text it streamed). */
  ANSWER_CHARS: 1200,
  /** The question it asked the person, and the person's reply. */
  QUESTION_CHARS: 400,
  REPLY_CHARS: 600,
  /** Context entries shown per step: the node's newest context items, then its newest messages. */
  CONTEXT_ITEMS: 5,
  CONTEXT_MESSAGES: 4,
  CONTEXT_CHARS: 240,
} as const;
const L = STEP_STATE_LIMITS;

/** The step that gathers a node's context for the agents after it (process-node); its time is their context's. */
const CONTEXT_STEP = 'collectContext';

/** One thing the agent had in its context at a step, cut to {@link STEP_STATE_LIMITS}. */
export interface StepContextEntry {
  /** One of the node's context items, or a message of its conversations. */
  source: StepContextSource;
  /** The context item's title, or the message's author (`USER`, `ASSISTANT`, `SYSTEM`). */
  title: string;
  excerpt: string;
}

/** What the person answered to a step's question. */
export interface StepReply {
  /** approve, reject, accept, revise, answer, confirm, correct, skip, stop, expired or other. */
  action: string;
  /** Their words (feedback, answer, correction, edited text), cut; null when the reply has none. */
  text: string | null;
  answeredAt: string | null;
}

/** What a step saw, decided, answered and was told, as far as the run's stored events and questions say. */
export interface StepState {
  /** Agent steps of a node's run: the node's context items and newest messages when its context was read. */
  context: StepContextEntry[];
  /** The message the step posted (the draft, the question…), or else the text it streamed; cut. */
  answer: string | null;
  /** The question it asked the person (a human step), cut. */
  question: string | null;
  /** The person's reply to that question; null while it waits (or when the step asked nothing). */
  reply: StepReply | null;
  /** The sub-questions a review step put to the person (its question's proposal); null for other steps. */
  proposal: ProposedSubQuestion[] | null;
  /** The decisions the step recorded, as their DecisionRecorded events carry them. */
  decisions: DecisionSnapshot[];
}

/** One visit of a run to a graph step, from its AgentStep events. */
export interface PathStep extends StepState {
  step: string;
  /** The parallel branch this visit ran as (a divergent task's key), null for a step that runs once at a time. */
  branch: string | null;
  /**
   * 1 for the first visit of this step in the run, 2 for the second (a loop: another feedback round)… The
   * parallel branches of one step started together (a divergent level's tasks) share one round.
   */
  round: number;
  enteredSeq: number;
  enteredAt: string;
  /** done, failed or interrupted; null while the step runs (or waits for the person). */
  outcome: string | null;
  /** Time spent in the step, summed over a pause and its resume. */
  durationMs: number | null;
  /**
   * The stored checkpoint the step started from (its state: what a fork from it starts from), null when none is
   * kept for it (pruned, a drive still going, a run stored before each step's checkpoint was kept).
   */
  checkpointId: string | null;
}

/** A run's path so far and the step it is in. */
export interface RunPath {
  runId: string;
  graph: string | null;
  steps: PathStep[];
  /** The step the run is in now (entered, not left, or waiting for the person), null once it ended. */
  current: string | null;
  /** Whether the run's checkpoints are still kept (a fork can start from them); false once pruned. */
  checkpointsKept: boolean;
}

/** The run whose path is read. */
export interface PathRun {
  id: string;
  mapId: string;
  nodeId: string | null;
  threadId: string;
}

type Json = Prisma.JsonValue;
/** The parallel branches of one step running in one round. */
type ParallelRound = { step: string; round: number; branches: Set<string> };
const text = (value: string, max: number) => clip(value, max).text;
const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);

/** A reply (any of the graphs' reply schemas) in words: what the person did and what they wrote. */
export function describeReply(reply: Json, answeredAt: Date | null, expired: boolean): StepReply {
  const at = answeredAt?.toISOString() ?? null;
  const r: Prisma.JsonObject = reply && typeof reply === 'object' && !Array.isArray(reply) ? reply : {};
  const say = (action: string, words: string | null) => ({
    action,
    text: words === null ? null : text(words, L.REPLY_CHARS),
    answeredAt: at,
  });
  if (expired || r.expired === true) return say('expired', null);
  if (r.skipped === true) return say('skip', null);
  const action = str(r.action);
  if (action === 'reject' || action === 'revise') return say(action, str(r.feedback));
  if (action === 'accept') return say('accept', str(r.conclusion));
  if (action === 'approve') {
    const list = Array.isArray(r.subQuestions) ? r.subQuestions : Array.isArray(r.tasks) ? r.tasks : null;
    const names = list?.map((item) => str(propertyOf(item, 'question') ?? propertyOf(item, 'name')));
    return say('approve', names?.filter(Boolean).join('; ') || null);
  }
  if (action === 'stop') return say('stop', null);
  if (str(r.answer)) return say('answer', str(r.answer));
  if (str(r.correction)) return say('correct', str(r.correction));
  if (r.confirm === true) {
    const edits = r.edits && typeof r.edits === 'object' ? Object.values(r.edits).map(String) : [];
    return say('confirm', edits.join('; ') || null);
  }
  return say('other', reply === null ? null : JSON.stringify(reply));
}

/** The sub-questions a review-decomposition question's context proposes, or null when it holds none. */
function proposalIn(context: Json): ProposedSubQuestion[] | null {
  const parsed = SubQuestionProposalSchema.safeParse(propertyOf(context, 'proposal'));
  return parsed.success ? parsed.data.subQuestions : null;
}

/** The run's own events (its steps, streamed text, posts, decisions, questions), oldest first. */
async function runEvents(db: ReadDb, run: PathRun): Promise<MapEvent[]> {
  const rows = await db.event.findMany({ where: { mapId: run.mapId, runId: run.id }, orderBy: { seq: 'asc' } });
  return rows.map(toMapEvent);
}

/** Whether a checkpoint's value is a node's context: its items and conversations are there. */
const isNodeContext = (value: unknown): value is NodeContext =>
  Array.isArray(propertyOf(value, 'contextItems')) && Array.isArray(propertyOf(value, 'conversations'));

/** A node's context as a checkpoint holds it (the `context` of the node processing graph's state), or null. */
function nodeContextIn(values: Record<string, unknown>): NodeContext | null {
  const context = values.context;
  return isNodeContext(context) ? context : null;
}

/** What an agent had in its context at a step (its checkpoint's): the newest context items and messages, cut. */
function contextEntriesOf(context: NodeContext): StepContextEntry[] {
  const messages = context.conversations
    .flatMap((c) => c.messages)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
    .slice(-L.CONTEXT_MESSAGES);
  return [
    ...context.contextItems.slice(-L.CONTEXT_ITEMS).map((i) => ({
      source: StepContextSource.CONTEXT_ITEM,
      title: i.title,
      excerpt: text(i.content, L.CONTEXT_CHARS),
    })),
    ...messages.map((m) => ({
      source: StepContextSource.MESSAGE,
      title: m.role,
      excerpt: text(m.content, L.CONTEXT_CHARS),
    })),
  ];
}

/** The run's stored checkpoints (its thread's root namespace), read back, oldest first. */
async function storedCheckpoints(db: ReadDb, threadId: string) {
  const rows = await db.checkpoint.findMany({ where: { threadId, namespace: '' } });
  return readStepCheckpoints(rows.map(toCheckpointRow));
}

/**
 * The node's context items and messages as they were at each of `times` (newest entries, capped): read once
 * from the node's rows, filtered by creation (and deletion) time. Items removed since are no longer stored.
 */
async function contextAt(db: ReadDb, nodeId: string, times: Date[]): Promise<Map<number, StepContextEntry[]>> {
  const latest = new Date(Math.max(...times.map((t) => t.getTime())));
  const [items, messages] = await Promise.all([
    db.contextItem.findMany({
      where: { nodeId, createdAt: { lte: latest } },
      orderBy: { createdAt: 'asc' },
      select: { title: true, content: true, createdAt: true },
    }),
    db.message.findMany({
      where: { conversation: { nodeId }, createdAt: { lte: latest } },
      orderBy: { createdAt: 'asc' },
      select: { role: true, content: true, createdAt: true, deletedAt: true },
    }),
  ]);
  const byTime = new Map<number, StepContextEntry[]>();
  for (const time of times) {
    const at = time.getTime();
    if (byTime.has(at)) continue;
    const itemsThen = items.filter((i) => i.createdAt.getTime() <= at).slice(-L.CONTEXT_ITEMS);
    const messagesThen = messages
      .filter((m) => m.createdAt.getTime() <= at && (m.deletedAt === null || m.deletedAt.getTime() > at))
      .slice(-L.CONTEXT_MESSAGES);
    byTime.set(at, [
      ...itemsThen.map((i) => ({
        source: StepContextSource.CONTEXT_ITEM,
        title: i.title,
        excerpt: text(i.content, L.CONTEXT_CHARS),
      })),
      ...messagesThen.map((m) => ({
        source: StepContextSource.MESSAGE,
        title: m.role,
        excerpt: text(m.content, L.CONTEXT_CHARS),
      })),
    ]);
  }
  return byTime;
}

/**
 * Reads a run's path from its own events: each step entered, in order, with its outcome and duration. A step
 * the run re-enters after it was interrupted (LangGraph re-runs it on resume) is the same visit; entering it
 * again after it was done is a new round, so a feedback loop shows as rounds. The parallel branches of a step
 * (a divergent level's tasks, told apart by their AgentStep `branch`) are visits of one round, each paired with
 * its own leaving (its outcome and duration) and given its own task's streamed text; the next level's tasks are
 * the next round.
 *
 * Each visit carries its state, from what is already stored: the events the run wrote between entering the
 * step and entering the next one give its decisions, the message it posted or the text it streamed (its answer)
 * and the question it asked; the run's question rows give the person's reply; an agent step (`agentSteps`) gets
 * the context the agent held, from the checkpoint the step started from (`checkpointId`: a run keeps one per
 * step while its checkpoints are kept). Without one (a drive still going, a run stored before), a node's run
 * falls back to the node's context items and newest messages as of when its context was read (the run's last
 * `collectContext` before it, else its own start). Everything is cut to {@link STEP_STATE_LIMITS}. Reads only the
 * run's events (by the `[mapId, runId]` index), its questions and checkpoints, and (for the fallback) the
 * node's context items and messages: never the map's whole log.
 */
export async function runPath(db: ReadDb, run: PathRun, agentSteps: ReadonlySet<string>): Promise<RunPath> {
  const [events, questions, checkpoints] = await Promise.all([
    runEvents(db, run),
    db.agentQuestion.findMany({
      where: { runId: run.id },
      select: { id: true, kind: true, status: true, reply: true, answeredAt: true },
    }),
    storedCheckpoints(db, run.threadId),
  ]);
  const steps: PathStep[] = [];
  const streamed = new Map<PathStep, string>();
  const asked = new Map<PathStep, string>();
  const rounds = new Map<string, number>();
  /** The step whose parallel branches are running now (one round), until another step is entered. */
  let parallel = null as ParallelRound | null;
  /** The branch (divergent task key) writing for each task node, so its streamed text goes to its own visit. */
  const branchOfNode = new Map<string, string>();
  const branchVisit = (nodeId: string | null) => {
    const branch = branchOfNode.get(nodeId ?? '');
    return branch === undefined ? undefined : steps.findLast((s) => s.branch === branch);
  };
  let graph: string | null = null;
  for (const event of events) {
    let visit = steps.at(-1);
    switch (event.type) {
      case 'AgentStep': {
        const { step, branch, phase, outcome, durationMs } = event.payload;
        graph = event.payload.graph;
        // A visit is left by the event of its own step and branch: parallel branches end in any order.
        const last = steps.findLast((s) => s.step === step && s.branch === branch);
        if (phase === AgentStepPhase.ENTERED) {
          const open: ParallelRound | null = branch !== null && parallel?.step === step ? parallel : null;
          if (last && last.outcome === 'interrupted' && (last === visit || open)) {
            last.outcome = null; // resumed
            continue;
          }
          // A branch joins the round its step's other branches run in; entering any other step ends that round.
          const joins = open !== null && branch !== null && !open.branches.has(branch);
          const round: number = joins ? open.round : (rounds.get(step) ?? 0) + 1;
          rounds.set(step, round);
          if (branch === null) parallel = null;
          else if (joins) open.branches.add(branch);
          else parallel = { step, round, branches: new Set([branch]) };
          steps.push({
            step,
            branch,
            round,
            enteredSeq: event.seq,
            enteredAt: event.createdAt,
            outcome: null,
            durationMs: null,
            checkpointId: null,
            context: [],
            answer: null,
            question: null,
            reply: null,
            proposal: null,
            decisions: [],
          });
        } else if (last) {
          last.outcome = outcome;
          last.durationMs = (last.durationMs ?? 0) + (durationMs ?? 0);
        }
        break;
      }
      case 'DivergentTaskStarted':
        branchOfNode.set(event.payload.nodeId, event.payload.key);
        break;
      case 'DecisionRecorded':
        visit?.decisions.push(event.payload.decision);
        break;
      case 'MessagePosted':
        visit = branchVisit(event.payload.nodeId) ?? visit;
        if (visit && event.payload.message.role === 'ASSISTANT')
          visit.answer = text(event.payload.message.content, L.ANSWER_CHARS);
        break;
      case 'AgentTokens':
        visit = branchVisit(event.payload.nodeId) ?? visit;
        if (visit) streamed.set(visit, (streamed.get(visit) ?? '') + event.payload.text);
        break;
      case 'AgentQuestion':
        if (visit) {
          visit.question = text(event.payload.question.question, L.QUESTION_CHARS);
          asked.set(visit, event.payload.question.id);
          if (event.payload.question.kind === QuestionKind.REVIEW_DECOMPOSITION)
            visit.proposal = proposalIn(event.payload.question.context);
        }
        break;
    }
  }
  const replies = new Map(questions.map((q) => [q.id, q]));
  for (const step of steps) {
    const said = streamed.get(step);
    if (step.answer === null && said) step.answer = text(said, L.ANSWER_CHARS);
    const row = replies.get(asked.get(step) ?? '');
    // An expired gate has no reply: it still waits for the person.
    if (row && (row.status === 'ANSWERED' || (row.status === 'EXPIRED' && !isGateQuestion(row.kind))))
      step.reply = describeReply(row.reply, row.answeredAt, row.status === 'EXPIRED');
  }
  // Each step's own checkpoint (a run of one step at a time: parallel branches share theirs), and the context the
  // agent held there.
  const started = steps.some((s) => s.branch !== null)
    ? []
    : checkpointsOfVisits(
        checkpoints,
        steps.map((s) => s.step),
      );
  const held = new Map<PathStep, NodeContext>();
  steps.forEach((step, i) => {
    const checkpoint = started[i];
    if (!checkpoint) return;
    step.checkpointId = checkpoint.checkpointId;
    const context = nodeContextIn(checkpoint.values);
    if (context && agentSteps.has(step.step)) held.set(step, context);
  });
  for (const [step, context] of held) step.context = contextEntriesOf(context);
  if (run.nodeId) {
    // Without its checkpoint (a drive still going, a run stored before each step's was kept), an agent step's
    // context is the node's as of the run's last context collection before it.
    const contextTimes = new Map<PathStep, Date>();
    let collected: Date | null = null;
    for (const step of steps) {
      if (step.step === CONTEXT_STEP) collected = new Date(step.enteredAt);
      if (agentSteps.has(step.step) && !held.has(step)) contextTimes.set(step, collected ?? new Date(step.enteredAt));
    }
    if (contextTimes.size > 0) {
      const byTime = await contextAt(db, run.nodeId, [...contextTimes.values()]);
      for (const [step, time] of contextTimes) step.context = byTime.get(time.getTime()) ?? [];
    }
  }
  // The run is in the last step entered while any visit of its round (its parallel branches too) goes on.
  const tail = steps.at(-1);
  const going = (s: PathStep) => s.outcome === null || s.outcome === 'interrupted';
  const current =
    tail && steps.some((s) => s.step === tail.step && s.round === tail.round && going(s)) ? tail.step : null;
  // Kept as `checkpointsKept` says: the thread still has a checkpoint in its root namespace.
  return { runId: run.id, graph, steps, current, checkpointsKept: checkpoints.length > 0 };
}
