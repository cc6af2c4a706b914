import { AgentError } from '../../errors/agent-error.ts';

/** A message refused because a turn of its consultation runs and the consultation's strategy is REJECT. */
export class ConsultationBusyError extends AgentError {
  /** The consultation that was busy. */
  readonly consultationId: string;

  constructor(consultationId: string) {
    super('CONSULTATION_BUSY', 'the consultation is still answering the previous message');
    this.consultationId = consultationId;
  }
}
