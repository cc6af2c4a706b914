import type { ConsultationStrategy, Language } from '../domain/enums.ts';
import type { TurnLifecycle, TurnOutcome } from '../graphs/consultation/conductor.ts';
import { normalizeNotePath } from '../graphs/consultation/note-path.ts';
import type {
  ConsultationMessage,
  ConsultationNoteDraft,
  ConsultationPlan,
  ConsultationProposalDraft,
  ConsultationRecordDraft,
  ConsultationSnapshot,
  ConsultationStorePort,
  NotesPort,
} from '../ports/consultation-store-port.ts';
import type { Idempotent } from '../ports/store-port.ts';

interface Held extends ConsultationPlan {
  language: Language;
  strategy: ConsultationStrategy;
  summary: string;
  messages: (ConsultationMessage & { planned: boolean; compressed: boolean })[];
  records: (ConsultationRecordDraft & { id: string })[];
  logs: string[];
  outcomes: TurnOutcome[];
  busy: boolean;
}

/**
 * A consultation store and notes folder held in memory, for graph tests: every write is kept (`writes` lists
 * them in order), notes are checked with the same path rules as the file store.
 */
export class InMemoryConsultationStore implements ConsultationStorePort, TurnLifecycle, NotesPort {
  readonly consultations = new Map<string, Held>();
  readonly notes = new Map<string, string>();
  /** Every write, in order: `message PERSON hi`, `record FACT …`, `note a.md`, `plan …`, `turn done`, … */
  readonly writes: string[] = [];
  /** What each idempotency key's write returned: a key used again writes nothing (the command layer's receipts). */
  private readonly receipts = new Map<string, unknown>();
  private sequence = 0;

  /** Creates a consultation; the test's starting point. */
  add(id: string, language: Language = 'en', strategy: ConsultationStrategy = 'INTERRUPT'): void {
    this.consultations.set(id, {
      language,
      strategy,
      summary: '',
      messages: [],
      records: [],
      logs: [],
      outcomes: [],
      busy: false,
      plan: [],
      currentStep: 0,
      context: {},
    });
  }

  /** The consultation, or a loud failure. */
  get(id: string): Held {
    const held = this.consultations.get(id);
    if (!held) throw new Error(`no consultation ${id}`);
    return held;
  }

  async load(consultationId: string): Promise<ConsultationSnapshot> {
    const held = this.get(consultationId);
    const visible = held.messages.filter((m) => !m.compressed);
    return {
      consultationId,
      language: held.language,
      strategy: held.strategy,
      summary: held.summary,
      messages: visible.map(({ id, role, text, answersId }) => ({ id, role, text, answersId })),
      unplanned: visible.filter((m) => m.role === 'PERSON' && !m.planned).map((m) => m.id),
      plan: [...held.plan],
      currentStep: held.currentStep,
      context: { ...held.context },
      records: held.records.map(({ kind, content }) => ({ kind, content })),
      notes: [...this.notes.keys()],
    };
  }

  async appendMessage(consultationId: string, message: Omit<ConsultationMessage, 'id'>) {
    const stored = { ...message, id: `m${++this.sequence}`, planned: false, compressed: false };
    this.get(consultationId).messages.push(stored);
    this.writes.push(`message ${message.role} ${message.text}`);
    return { id: stored.id, role: stored.role, text: stored.text, answersId: stored.answersId ?? null };
  }

  async markPlanned(consultationId: string, messageIds: string[]) {
    for (const m of this.get(consultationId).messages) if (messageIds.includes(m.id)) m.planned = true;
  }

  async savePlan(consultationId: string, plan: ConsultationPlan) {
    Object.assign(this.get(consultationId), structuredClone(plan));
    this.writes.push(`plan ${plan.plan.join(' | ')} @${plan.currentStep}`);
  }

  async log(consultationId: string, text: string) {
    this.get(consultationId).logs.push(text);
  }

  async writeRecord(consultationId: string, record: ConsultationRecordDraft, options: Idempotent = {}) {
    return this.once(options, () => {
      const id = `r${++this.sequence}`;
      this.get(consultationId).records.push({ ...record, id });
      this.writes.push(`record ${record.kind} ${record.content}`);
      return { id, written: true };
    });
  }

  async compress(consultationId: string, summary: string, messageIds: string[]) {
    const held = this.get(consultationId);
    held.summary = summary;
    for (const m of held.messages) if (messageIds.includes(m.id)) m.compressed = true;
    this.writes.push(`compress ${messageIds.length}`);
  }

  async propose(_consultationId: string, proposal: ConsultationProposalDraft) {
    this.writes.push(`propose ${proposal.nodeId} ${proposal.subQuestions.map((q) => q.question).join(' | ')}`);
    return { runId: `r${++this.sequence}` };
  }

  async write(_consultationId: string, note: ConsultationNoteDraft, options: Idempotent = {}) {
    return this.once(options, () => {
      const path = normalizeNotePath(note.path);
      this.notes.set(path, note.content);
      this.writes.push(`note ${path}`);
      return { path, written: true };
    });
  }

  /** Runs a write unless its key was used; then returns what that write returned, as not written this time. */
  private once<T extends { written: boolean }>({ idempotencyKey: key }: Idempotent, write: () => T): T {
    if (key && this.receipts.has(key)) return { ...(this.receipts.get(key) as T), written: false };
    const result = write();
    if (key) this.receipts.set(key, result);
    return result;
  }

  async turnStarted(consultationId: string) {
    this.get(consultationId).busy = true;
  }

  async turnEnded(consultationId: string, outcome: TurnOutcome) {
    const held = this.get(consultationId);
    held.busy = false;
    held.outcomes.push(outcome);
    this.writes.push(`turn ${outcome.status}`);
  }
}
