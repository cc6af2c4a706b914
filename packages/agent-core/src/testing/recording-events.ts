import type { DivergentProgress } from '../ports/divergent-progress.ts';
import type { AgentQuestion, EventPort, RunRef } from '../ports/event-port.ts';

/** An {@link EventPort} that records every event as a short line, for tests to assert order. */
export class RecordingEvents implements EventPort {
  /** `entered restateProblem`, `left restateProblem done`, `question confirm-understanding`, … */
  readonly lines: string[] = [];
  /** The questions asked, with their request ids. */
  readonly questions: AgentQuestion[] = [];
  /** Streamed text, joined. */
  tokens = '';
  /** The parallel branch of each step entered or left (`runTask L1.T2`), for the steps that run as branches. */
  readonly branches: string[] = [];

  stepEntered(run: RunRef, step: string): void {
    this.lines.push(`entered ${step}`);
    if (run.branch) this.branches.push(`entered ${step} ${run.branch}`);
  }
  stepLeft(run: RunRef, step: string, outcome: string): void {
    this.lines.push(`left ${step} ${outcome}`);
    if (run.branch) this.branches.push(`left ${step} ${run.branch} ${outcome}`);
  }
  questionAsked(_run: RunRef, question: AgentQuestion): void {
    this.questions.push(question);
    this.lines.push(`question ${question.kind}`);
  }
  tokensStreamed(_run: RunRef, text: string): void {
    this.tokens += text;
  }
  /** Divergent progress, in order. */
  readonly divergentProgress: DivergentProgress[] = [];
  divergent(_run: RunRef, progress: DivergentProgress): void {
    this.divergentProgress.push(progress);
    this.lines.push(progress.type);
  }
  runFinished(): void {
    this.lines.push('run finished');
  }
  runFailed(_run: RunRef, failure: { code: string }): void {
    this.lines.push(`run failed ${failure.code}`);
  }
}
