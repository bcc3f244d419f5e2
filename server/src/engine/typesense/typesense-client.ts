import { Client } from "typesense";
import { chunked } from "../../lib/chunked.ts";
import { errorForStatus, toEngineError } from "./error-mapping.ts";
import type { TsSearchResult } from "./search-runner.ts";
import type { SearchParams } from "./search-params.ts";

/** How the official client reaches a cluster: failover across nodes, retries, its own logging. */
export interface TypesenseClientOptions {
  /** Node URLs, e.g. ["http://ts1:8108", "http://ts2:8108", "http://ts3:8108"]. */
  nodes: readonly string[];
  apiKey: string;
  /** Client settings for retries and failover across nodes (defaults: 5 s, max(3, nodes) retries, 0.1 s, 15 s). */
  connectionTimeoutSeconds?: number;
  numRetries?: number;
  retryIntervalSeconds?: number;
  healthcheckIntervalSeconds?: number;
  /** Spread load by starting at a random node (default true; tests turn it off to assert failover order). */
  randomizeNodes?: boolean;
  /** The client's own logging of retries (default "warn"). */
  clientLogLevel?: "trace" | "debug" | "info" | "warn" | "error" | "silent";
}

export function createClient(opts: TypesenseClientOptions): Client {
  if (opts.nodes.length === 0) throw new Error("a Typesense client needs at least one node URL");
  return new Client({
    nodes: opts.nodes.map((url) => ({ url: url.replace(/\/+$/, "") })),
    apiKey: opts.apiKey,
    connectionTimeoutSeconds: opts.connectionTimeoutSeconds ?? 5,
    numRetries: opts.numRetries ?? Math.max(3, opts.nodes.length),
    retryIntervalSeconds: opts.retryIntervalSeconds ?? 0.1,
    healthcheckIntervalSeconds: opts.healthcheckIntervalSeconds ?? 15,
    randomizeNodes: opts.randomizeNodes ?? true,
    logLevel: opts.clientLogLevel ?? "warn",
  });
}

/** Searches one multi_search request carries (under the server's limit_multi_searches, 50 by default). */
const SEARCHES_PER_REQUEST = 40;

/** Searches through POST /multi_search (bodies, not URLs: filters and vectors may be long), in order; an error inside an answer throws. */
export async function multiSearch(client: Client, searches: SearchParams[]): Promise<TsSearchResult[]> {
  const out: TsSearchResult[] = [];
  for (const chunk of chunked(searches, SEARCHES_PER_REQUEST)) {
    let response: { results: (TsSearchResult & { code?: number; error?: string })[] };
    try {
      response = (await client.multiSearch.perform({ searches: chunk } as never)) as unknown as typeof response;
    } catch (error) {
      throw toEngineError(error, "searching");
    }
    for (const result of response.results) {
      if (result.error !== undefined || result.code !== undefined)
        throw errorForStatus(result.code ?? 500, result.error ?? "search failed");
      out.push(result);
    }
  }
  return out;
}
