import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import { livePages } from "../catalog/storage/catalog-repository.ts";
import type { VectorIndex } from "../../engine/vectors/vector-index.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import { EmbeddingsUnavailableError, type EmbeddingsClient } from "./embeddings-client.ts";
import { productText, vectorHash } from "./product-text.ts";

/*
 * Hybrid search: products and queries embedded by the endpoint the operator configured (embeddings-client.ts),
 * products' vectors kept in the engine's VectorIndex. Words still decide what a query matches; the vectors add two
 * things: among the first results a product closer in meaning rises a few places (result-reranker.ts), and a query
 * whose words find nothing is answered by the products nearest its meaning (SearchService.recover).
 *
 * A store's vectors follow its catalog: once the catalog has been quiet for SETTLE_MS after a change, every live
 * product whose text (or the model) changed is embedded again and deleted ones are dropped. A product's vector is
 * derived data: what a sync misses (a stop, an endpoint down) the next one makes, and each start syncs every store.
 */

/** Quiet time after a catalog change before a sync: a bulk's batches are one change. */
const SETTLE_MS = 2_000;
/** A failed sync is tried again after this long. */
const RETRY_MS = 60_000;
/** Catalog rows read per page while a sync compares hashes. */
const SYNC_PAGE = 1_000;
/** Products embedded per put: one request's worth of texts, a few times over. */
const EMBED_BATCH = 256;
/** Queries whose vectors are kept (the oldest goes first). */
const QUERY_CACHE = 2_000;
/** A query waits at most this long for its vector: searches are answered without one past it. */
const QUERY_TIMEOUT_MS = 1_500;
/** After the endpoint fails a query, searches go without vectors this long instead of each waiting for it. */
const COOLDOWN_MS = 30_000;
/** A recovered product is at least this share of the best one's similarity: the nearest, not the whole catalog. */
const RELATIVE_SIMILARITY = 0.8;

export interface HybridSearchDeps {
  client: EmbeddingsClient;
  vectors: VectorIndex;
  catalog: Pick<CatalogRepository, "liveProductsAfter">;
  /** Below this cosine, a product is no answer to a query (EMBEDDINGS_MIN_SIMILARITY_PERCENT). */
  minSimilarity: number;
  log: Logger;
  now: () => number;
}

interface StoreSync {
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
  /** A change arrived while a sync ran: another follows it. */
  again: boolean;
  last: SyncOutcome | null;
}

/** What the last sync of a store did (GET /{v}/hybrid). */
export interface SyncOutcome {
  at: string;
  products: number;
  embedded: number;
  removed: number;
  /** Why it failed (it is tried again after RETRY_MS); absent when it succeeded. */
  error?: string;
}

export interface HybridState {
  enabled: true;
  model: string;
  /** Products that have a vector now. */
  vectors: number;
  syncing: boolean;
  lastSync: SyncOutcome | null;
}

export class HybridSearch {
  private readonly syncs = new Map<string, StoreSync>();
  private readonly queries = new Map<string, Promise<Float32Array | null>>();
  private quietUntil = 0;
  private stopped = false;

  constructor(private readonly d: HybridSearchDeps) {}

  /** The store's catalog changed: its vectors follow once it is quiet. */
  changed(storeId: string, wait = SETTLE_MS): void {
    if (this.stopped) return;
    const sync = this.syncOf(storeId);
    if (sync.running !== null) {
      sync.again = true;
      return;
    }
    if (sync.timer) clearTimeout(sync.timer);
    sync.timer = setTimeout(() => {
      sync.timer = null;
      // A sync catches and logs its own failures.
      void this.run(storeId, sync);
    }, wait);
    sync.timer.unref?.();
  }

  private run(storeId: string, sync: StoreSync): Promise<void> {
    sync.running = this.sync(storeId, sync).finally(() => {
      sync.running = null;
      if (sync.again) {
        sync.again = false;
        this.changed(storeId);
      }
    });
    return sync.running;
  }

  /** Syncs the store's vectors now (after the one under way, if any) and answers its state. */
  async syncNow(storeId: string): Promise<HybridState> {
    const sync = this.syncOf(storeId);
    await sync.running;
    if (sync.timer) clearTimeout(sync.timer);
    sync.timer = null;
    await this.run(storeId, sync);
    return this.state(storeId);
  }

  async state(storeId: string): Promise<HybridState> {
    const sync = this.syncs.get(storeId);
    return {
      enabled: true,
      model: this.d.client.modelKey,
      vectors: (await this.d.vectors.hashes(storeId)).size,
      syncing: !!sync?.running,
      lastSync: sync?.last ?? null,
    };
  }

  /** A deleted store: its vectors go. */
  async forget(storeId: string): Promise<void> {
    const sync = this.syncs.get(storeId);
    if (sync?.timer) clearTimeout(sync.timer);
    this.syncs.delete(storeId);
    await sync?.running;
    await this.d.vectors.dropStore(storeId);
  }

  /** Stops syncing; resolves once a sync under way has let go (it stops at its next product), before storage closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const sync of this.syncs.values()) if (sync.timer) clearTimeout(sync.timer);
    await Promise.all([...this.syncs.values()].map((sync) => sync.running));
  }

  private syncOf(storeId: string): StoreSync {
    let sync = this.syncs.get(storeId);
    if (!sync) this.syncs.set(storeId, (sync = { timer: null, running: null, again: false, last: null }));
    return sync;
  }

  /** Embeds the live products whose vector is missing or made from other text; drops the deleted ones' vectors. */
  private async sync(storeId: string, sync: StoreSync): Promise<void> {
    const started = performance.now();
    const at = new Date(this.d.now()).toISOString();
    let embedded = 0;
    const live = new Set<string>();
    try {
      const kept = await this.d.vectors.hashes(storeId);
      let stale: { id: string; hash: string; text: string }[] = [];
      const flush = async () => {
        const vectors = await this.d.client.embed(stale.map((s) => s.text));
        await this.d.vectors.put(
          storeId,
          stale.map((s, i) => ({ id: s.id, hash: s.hash, vector: vectors[i]! })),
        );
        embedded += stale.length;
        stale = [];
      };
      for await (const page of livePages(this.d.catalog, storeId, SYNC_PAGE)) {
        for (const row of page) {
          live.add(row.id);
          const text = productText(JSON.parse(row.doc) as Product);
          const hash = vectorHash(this.d.client.modelKey, text);
          if (kept.get(row.id) !== hash) stale.push({ id: row.id, hash, text });
          if (stale.length >= EMBED_BATCH) await flush();
          if (this.stopped) return;
        }
      }
      if (stale.length) await flush();
      const gone = [...kept.keys()].filter((id) => !live.has(id));
      await this.d.vectors.remove(storeId, gone);
      sync.last = { at, products: live.size, embedded, removed: gone.length };
      if (embedded || gone.length)
        this.d.log.info("hybrid vectors synced", {
          storeId,
          embedded,
          removed: gone.length,
          products: live.size,
          ms: Math.round(performance.now() - started),
        });
    } catch (error) {
      if (this.stopped) return;
      sync.last = { at, products: live.size, embedded, removed: 0, error: (error as Error).message };
      this.d.log.warn("hybrid vectors sync failed", { storeId, error: (error as Error).message, retryInSeconds: RETRY_MS / 1000 });
      this.changed(storeId, RETRY_MS);
    }
  }

  /** The query's vector, or null while the endpoint is failing (searches then go without). */
  private queryVector(query: string): Promise<Float32Array | null> {
    const text = query.trim().toLowerCase();
    const known = this.queries.get(text);
    if (known !== undefined) return known;
    if (this.d.now() < this.quietUntil) return Promise.resolve(null);
    const asked = this.d.client.embed([text], QUERY_TIMEOUT_MS).then(
      ([vector]) => vector ?? null,
      (error: Error) => {
        this.queries.delete(text);
        this.quietUntil = this.d.now() + COOLDOWN_MS;
        if (!(error instanceof EmbeddingsUnavailableError)) throw error;
        this.d.log.warn("hybrid search goes without vectors for a while", { error: error.message, seconds: COOLDOWN_MS / 1000 });
        return null;
      },
    );
    if (this.queries.size >= QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
    this.queries.set(text, asked);
    return asked;
  }

  /**
   * The products nearest the query's meaning, nearest first: at most `k`, each at least minSimilarity and
   * RELATIVE_SIMILARITY of the nearest. Empty when the store has no vectors or the endpoint is failing.
   */
  async neighbours(storeId: string, query: string, k: number): Promise<string[]> {
    const vector = await this.queryVector(query);
    if (!vector) return [];
    const found = await this.d.vectors.nearest(storeId, vector, k);
    const floor = Math.max(this.d.minSimilarity, (found[0]?.similarity ?? 0) * RELATIVE_SIMILARITY);
    return found.filter((n) => n.similarity >= floor).map((n) => n.id);
  }

  /** How close each of `ids` is to the query's meaning (cosine); empty when unknown. */
  async closeness(storeId: string, query: string, ids: readonly string[]): Promise<Map<string, number>> {
    const vector = await this.queryVector(query);
    return vector ? this.d.vectors.similarities(storeId, vector, ids) : new Map();
  }
}
