/*
 * The requests a store's shoppers send, for benches that load a server: the search mix (every search with facets,
 * sorts rotating over the real query suggestions), similar products and looks, for sources spread over the
 * catalog (500 of them), searches twice as often as either product page.
 */

const SORTS = ["", "pricea", "priced", "new", "rating"];
/** By `i % 4`. */
export const MIX_KINDS = ["search", "search", "similar products", "looks"] as const;
export type MixKind = (typeof MIX_KINDS)[number];

/** Request `i` of the mix to the server at `url`, labelled with its kind. */
export function productMix(
  url: string,
  headers: Record<string, string>,
  productIds: readonly string[],
  queries: readonly string[],
): (i: number) => { label: MixKind; send: () => Promise<Response> } {
  const step = Math.max(1, Math.floor(productIds.length / 500));
  return (i) => {
    const kind = i % 4;
    const productId = productIds[(i * step) % productIds.length]!;
    const sortBy = SORTS[i % SORTS.length]!;
    const params =
      kind === 2
        ? `similarity?${new URLSearchParams({ productId })}`
        : kind === 3
          ? `ctl?${new URLSearchParams({ productId })}`
          : `search?${new URLSearchParams({ query: queries[i % queries.length]!, returnFacets: "true", ...(sortBy ? { sortBy } : {}) })}`;
    return { label: MIX_KINDS[kind]!, send: () => fetch(`${url}/1.9/${params}`, { headers }) };
  };
}

/**
 * The first similar products and looks, which build their models from the catalog. A build longer than the
 * server's 10 s idle time-out (200,000 products on a busy machine) closes the request's connection; the build goes
 * on, and the request asked again waits for it.
 */
export async function buildProductPageModels(url: string, headers: Record<string, string>, productId: string): Promise<void> {
  for (const path of ["similarity", "ctl"]) {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${url}/1.9/${path}?${new URLSearchParams({ productId })}`, { headers }).catch((error: unknown) => {
        if (attempt < 10) return null;
        throw error;
      });
      if (!res) continue;
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET /${path}: ${res.status}`);
      break;
    }
  }
}

/** Latencies of a run by the kind of their request. */
export function latenciesByKind(run: { latencies: readonly number[]; labels: readonly string[] }): Map<string, number[]> {
  const kinds = new Map<string, number[]>();
  run.latencies.forEach((ms, i) => {
    const kind = run.labels[i]!;
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind)!.push(ms);
  });
  return kinds;
}
