/** A request that cannot be run as given: the CLI exits 2 on it, the MCP server says it as a refusal. */
import { DeskError } from '../../core/base/errors';

export class UsageError extends DeskError {
  constructor(message: string) {
    super('usage', message, 'usage');
  }
}
