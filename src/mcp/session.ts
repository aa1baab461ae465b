/**
 * What one MCP session may approve: the limit the person set when starting the server (--allow-spend,
 * default 0). Amounts are reserved while the person is asked, so two requests at once cannot both fit in
 * what only one of them fits in; an approval that paid nothing gives its reservation back.
 */
export class SpendingSession {
  private committed = 0n;
  private reserved = 0n;

  /** `limit`: token base units, read from --allow-spend (the CLI's usdArgument). */
  constructor(readonly limit: bigint) {}

  /** What is left to approve in this session, in token base units. */
  remainingUnits(): bigint {
    const left = this.limit - this.committed - this.reserved;
    return left > 0n ? left : 0n;
  }

  /** Whether `units` fit in what is left (nothing fits in a session of limit 0). */
  fits(units: bigint): boolean {
    return units > 0n && units <= this.remainingUnits();
  }

  /** Holds `units` for an approval under way; false when they do not fit in what is left. */
  reserve(units: bigint): boolean {
    if (!this.fits(units)) return false;
    this.reserved += units;
    return true;
  }

  /** The approval ended: `spent` units count against the limit (in doubt counts in full), the rest is freed. */
  settle(units: bigint, spent: bigint): void {
    this.reserved -= units;
    this.committed += spent;
  }
}
