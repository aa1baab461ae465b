/**
 * Writes that need not delay the answer they belong to (saving a 22 MB shelf): each runs just after, or when
 * the desk closes at the latest, so a CLI command that answers and exits still saves it.
 */
export class AfterAnswer {
  private readonly deferred = new Set<() => void>();

  run(write: () => void): void {
    const run = () => {
      if (!this.deferred.delete(run)) return;
      try {
        write();
      } catch {
        // What is not saved now is saved by the next fetch; the answer already went out.
      }
    };
    this.deferred.add(run);
    setImmediate(run);
  }

  /** Runs every write still waiting, before the database closes. */
  flush(): void {
    for (const run of [...this.deferred]) run();
  }
}
