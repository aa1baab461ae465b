/**
 * What a start has created so far, to be undone in reverse: a start that fails half-way, and a stop, run every
 * undo step once, newest first, each one even when an earlier one throws.
 */
export type UndoStep = () => void | Promise<void>;

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class Teardown {
  private readonly steps: { what: string; undo: UndoStep }[] = [];

  /** Registers the undo of something just created; `what` names it in failure messages. */
  add(what: string, undo: UndoStep): void {
    this.steps.push({ what, undo });
  }

  /** Undoes everything registered, newest first, once; returns a line per step that failed. */
  async run(): Promise<string[]> {
    const failures: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.undo();
      } catch (error) {
        failures.push(`${step.what}: ${errorMessage(error)}`);
      }
    }
    return failures;
  }
}
