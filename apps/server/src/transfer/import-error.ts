import { DomainError } from '../commands/domain-errors.ts';
import type { MapFileFormat } from './map-document.ts';

/**
 * A file that cannot be imported: `where` names the place in it (`line 3, column 7`, `tree[0].children[2].question`,
 * `opml/body/outline[2]`), `reason` what is wrong there. Nothing was created.
 */
export class ImportError extends DomainError {
  readonly code = 'VALIDATION' as const;
  constructor(
    readonly format: MapFileFormat,
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${format} ${where}: ${reason}`);
  }
}
