import type { SearchLogEntry } from "./storage/search-log-repository.ts";

/*
 * Search as you type (an InstantSearch search box, a store's own UI) sends a search per keystroke: "s", "sh",
 * "shi", "shirt". Logged as they come, every prefix would count as a shopper's search in reports and teach
 * suggestions half-words. A shopper's typed searches are therefore held for a moment (SETTLE_MS): one that the same shopper
 * extends or shortens within that time (the same filters, the same collection) replaces it, and only the query
 * they settled on is logged. Searches without a shopper id, browsing and collection pages pass straight through.
 */

/** Time between two keystrokes' searches within which the later one replaces the earlier, by default. */
export const SETTLE_MS = 3_000;
/** Shoppers' searches held at most; beyond, the oldest is logged at once (memory stays bounded under any load). */
const MAX_HELD = 10_000;

export interface SearchLogSink {
  add(entries: readonly SearchLogEntry[]): Promise<void>;
  flush(): Promise<void>;
}

const shopperOf = (e: SearchLogEntry) => ((e.userId ?? e.sessionId) ? `${e.storeId}\u0000${e.userId ?? e.sessionId}` : null);

/** The later search continues the earlier one: the shopper typed on or deleted, with nothing else changed. */
function continues(earlier: SearchLogEntry, later: SearchLogEntry, settleMs: number): boolean {
  const a = earlier.query ?? "";
  const b = later.query ?? "";
  return (
    later.at - earlier.at <= settleMs &&
    (b.startsWith(a) || a.startsWith(b)) &&
    earlier.collection === later.collection &&
    earlier.filtered === later.filtered &&
    earlier.preprod === later.preprod
  );
}

export class TypingCoalescer implements SearchLogSink {
  /** Per shopper, their latest typed search, in the order first held (a Map keeps insertion order). */
  private readonly held = new Map<string, SearchLogEntry>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly sink: SearchLogSink,
    private readonly now: () => number,
    private readonly settleMs: number,
    /** Told when a held search could not be written (no request waits on it to report the error). */
    private readonly failed: (error: Error) => void,
  ) {}

  add(entries: readonly SearchLogEntry[]): Promise<void> {
    const now: SearchLogEntry[] = [];
    for (const entry of entries) {
      const shopper = entry.query ? shopperOf(entry) : null;
      if (!shopper) {
        now.push(entry);
        continue;
      }
      const earlier = this.held.get(shopper);
      if (earlier && !continues(earlier, entry, this.settleMs)) now.push(earlier);
      // Deleted and set again, so the map's order stays the order of the last keystroke.
      this.held.delete(shopper);
      this.held.set(shopper, entry);
    }
    while (this.held.size > MAX_HELD) {
      const [oldest, entry] = this.held.entries().next().value as [string, SearchLogEntry];
      this.held.delete(oldest);
      now.push(entry);
    }
    this.schedule();
    return now.length ? this.sink.add(now) : Promise.resolve();
  }

  /** Logs every held search now (shutdown, and readers that must see everything logged so far). */
  flush(): Promise<void> {
    this.release(Number.POSITIVE_INFINITY);
    return this.sink.flush();
  }

  /** Logs the held searches made at `cutoff` or before. */
  private release(cutoff: number): void {
    const settled: SearchLogEntry[] = [];
    for (const [shopper, entry] of this.held) {
      // The map is in the order of the last keystroke: the first one made after the cutoff ends the scan.
      if (entry.at > cutoff) break;
      this.held.delete(shopper);
      settled.push(entry);
    }
    if (settled.length) this.sink.add(settled).catch(this.failed);
  }

  private schedule(): void {
    if (this.timer || this.held.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.release(this.now() - this.settleMs);
      this.schedule();
    }, this.settleMs / 2);
    this.timer.unref?.();
  }
}
