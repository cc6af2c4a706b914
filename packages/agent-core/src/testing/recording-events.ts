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

  stepEntered(_run: RunRef, step: string): void {
    this.lines.push(`entered ${step}`);
  }
  stepLeft(_run: RunRef, step: string, outcome: string): void {
    this.lines.push(`left ${step} ${outcome}`);
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
