/*
 * Searches the demo store the way its pages do, with the search key. Typeahead requests, so these are not logged
 * as shoppers' searches (and never become suggestions).
 */

export interface SearchTarget {
  apiUrl: string;
  storeId: string;
  searchKey: string;
}

/** Whether a search for `query` finds anything. */
export async function searchFinds(t: SearchTarget, query: string): Promise<boolean> {
  const res = await fetch(`${t.apiUrl}/1.9/search?query=${encodeURIComponent(query)}&typeahead=true&pageSize=1`, {
    headers: { "x-service-store-id": t.storeId, "x-service-api-key": t.searchKey },
  });
  return res.ok && ((await res.json()) as { totalProductCount: number }).totalProductCount > 0;
}

export interface SearchProbe {
  /** performance.now() of the first answer with results; null if stopped before one. */
  found: Promise<number | null>;
  stop(): void;
}

/** When a shopper could first search while the catalog is being indexed: asks for a known product until it is found. */
export function probeFirstSearch(t: SearchTarget, query: string, everyMs = 200): SearchProbe {
  let stopped = false;
  const found = (async () => {
    while (!stopped) {
      if (await searchFinds(t, query)) return performance.now();
      await Bun.sleep(everyMs);
    }
    return null;
  })().catch(() => null); // only a measurement: a failed probe must not fail the start
  return {
    found,
    stop: () => {
      stopped = true;
    },
  };
}
