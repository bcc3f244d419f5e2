import type { OurEvent } from "./insights-events.ts";

/*
 * A search box that searches as the shopper types shows a result page per keystroke, and the insights middleware
 * reports each one: "s", "sh", "shi", "shirt". Sent as they come, every prefix would count as a shopper's search
 * in the store's reports. A Search is therefore held until the shopper stops typing: one that the next Search
 * extends or shortens (the same filters) is replaced by it; any other event (a click, an add-to-cart, a page
 * change) sends the held Search first, so what follows it is counted against the query the shopper settled on.
 */

/** How long a typed query must rest before its Search is sent, by default: the server's search log waits as long. */
export const SETTLE_MS = 3_000;

const queryOf = (e: OurEvent) => String(e.data.query ?? "");

/** The later Search continues the earlier: the shopper typed on or deleted, with the same filters. */
function continues(earlier: OurEvent, later: OurEvent): boolean {
  const a = queryOf(earlier);
  const b = queryOf(later);
  return (a.startsWith(b) || b.startsWith(a)) && JSON.stringify(earlier.data.facets) === JSON.stringify(later.data.facets);
}

export class SettlingSearches {
  private held: OurEvent | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (events: OurEvent[]) => Promise<void>,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** Sends the events, holding back a Search the shopper may still be typing. */
  offer(events: readonly OurEvent[]): Promise<void> | undefined {
    const out: OurEvent[] = [];
    for (const event of events) {
      if (event.type === "Search") {
        if (this.held && !continues(this.held, event)) out.push(this.held);
        this.held = event;
      } else {
        if (this.held) out.push(this.held);
        this.held = null;
        out.push(event);
      }
    }
    clearTimeout(this.timer);
    if (this.held) this.timer = setTimeout(() => void this.flush(), this.settleMs);
    return out.length ? this.send(out) : undefined;
  }

  /** Sends a held Search now (the page is going away, or it has rested long enough). */
  flush(): Promise<void> | undefined {
    clearTimeout(this.timer);
    const held = this.held;
    this.held = null;
    return held ? this.send([held]) : undefined;
  }
}
