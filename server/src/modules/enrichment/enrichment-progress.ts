import type { EnrichmentProgress } from "./storage/enrichment-repository.ts";

/** How old a reading /health may show: a health check polled every second costs one count query per interval. */
const MAX_AGE_MS = 2_000;

/** Enrichment's progress per stage as /health shows it, read again at most every MAX_AGE_MS. */
export class EnrichmentProgressReader {
  private last: { at: number; progress: Promise<EnrichmentProgress> } | null = null;

  constructor(
    private readonly read: () => Promise<EnrichmentProgress>,
    private readonly now: () => number,
  ) {}

  current(): Promise<EnrichmentProgress> {
    const at = this.now();
    if (!this.last || at - this.last.at >= MAX_AGE_MS) {
      const progress = this.read();
      const reading = { at, progress };
      this.last = reading;
      // A failed read is not kept: the next check reads again.
      progress.catch(() => this.last === reading && (this.last = null));
    }
    return this.last.progress;
  }
}
