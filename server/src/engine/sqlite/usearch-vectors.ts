import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import usearch from "usearch";
import { openDatabase } from "../../platform/sqlite/connection.ts";
import { cosine, MAX_NEIGHBOURS, type StoredVector, type VectorIndex, type VectorNeighbour } from "../vectors/vector-index.ts";

/*
 * The embedded engine's vectors: one SQLite file per store under <dataDir>/vectors keeps them (so a restart embeds
 * nothing again), and an HNSW graph of usearch (Unum's approximate nearest-neighbour library, prebuilt for the
 * usual platforms) answers nearest-neighbour queries from memory. The graph holds half-precision copies; exact
 * similarities are read from the file, so a search's re-rank never waits for the graph.
 *
 * The graph is saved beside the file once writes have been quiet for SAVE_AFTER_MS, with the write epoch it holds;
 * a start loads it when its epoch is the file's (a crash after later writes rebuilds it from the rows instead).
 * Adding to the graph is native and synchronous: it goes GRAPH_SLICE vectors per turn of the event loop.
 */

const { Index, MetricKind, ScalarKind } = usearch;
type Graph = InstanceType<typeof Index>;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS vectors (
    key    INTEGER PRIMARY KEY,
    id     TEXT NOT NULL UNIQUE,
    hash   TEXT NOT NULL,
    vector BLOB NOT NULL
  );
  -- epoch: bumped by every write; saved_epoch: the epoch of the graph saved beside the file.
  CREATE TABLE IF NOT EXISTS graph_state (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

/** Rows read per turn of the event loop while a graph is rebuilt. */
const LOAD_SLICE = 500;
/** Vectors added to a graph per turn of the event loop (about a millisecond each at 1,536 dimensions). */
const GRAPH_SLICE = 16;
/** Edges per node of the graph: usearch's default, a fair trade of memory for recall at catalog sizes. */
const CONNECTIVITY = 16;
/** Quiet time after a write before the graph is saved. */
const SAVE_AFTER_MS = 5_000;

interface Held {
  graph: Graph;
  dimensions: number;
  /** Graph key (the row's key) -> product id. */
  ids: Map<number, string>;
}

interface OpenStore {
  db: Database;
  /** The graph, loaded or rebuilt on first need; null when the store has no vectors. */
  graph: Promise<Held | null> | null;
  saveTimer: ReturnType<typeof setTimeout> | null;
}

const blobOf = (vector: Float32Array) => new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
/** A copy: a blob's bytes need not be aligned for a Float32Array view. */
const vectorOf = (blob: Uint8Array) => new Float32Array(blob.slice().buffer);
const newGraph = (dimensions: number) => new Index(dimensions, MetricKind.Cos, ScalarKind.F16, CONNECTIVITY);

export class UsearchVectors implements VectorIndex {
  readonly kind = "usearch";
  private readonly stores = new Map<string, OpenStore>();
  private readonly dir: string;

  constructor(private readonly opts: { dataDir: string; synchronous: "FULL" | "NORMAL"; mmapBytes?: number; cacheKib?: number }) {
    this.dir = join(opts.dataDir, "vectors");
    mkdirSync(this.dir, { recursive: true });
  }

  /** Store ids are validated at creation (letters, digits, - and _), so they are safe as file names. */
  private file(storeId: string, ext: string): string {
    return join(this.dir, `${storeId}.${ext}`);
  }

  private store(storeId: string): OpenStore {
    let open = this.stores.get(storeId);
    if (!open) {
      const db = openDatabase(this.file(storeId, "sqlite"), {
        synchronous: this.opts.synchronous,
        mmapBytes: this.opts.mmapBytes,
        cacheKib: this.opts.cacheKib,
      });
      db.exec(SCHEMA);
      open = { db, graph: null, saveTimer: null };
      this.stores.set(storeId, open);
    }
    return open;
  }

  private held(storeId: string, store: OpenStore): Promise<Held | null> {
    if (!store.graph) {
      store.graph = this.loadGraph(storeId, store);
      store.graph.catch(() => (store.graph = null));
    }
    return store.graph;
  }

  private stateOf(db: Database, name: string): number {
    return db.query<{ value: number }, [string]>("SELECT value FROM graph_state WHERE name = ?").get(name)?.value ?? 0;
  }

  private setState(db: Database, name: string, value: number): void {
    db.query("INSERT INTO graph_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(
      name,
      value,
    );
  }

  private async loadGraph(storeId: string, store: OpenStore): Promise<Held | null> {
    const first = store.db.query<{ vector: Uint8Array }, []>("SELECT vector FROM vectors LIMIT 1").get();
    if (!first) return null;
    const dimensions = first.vector.byteLength / 4;
    const ids = new Map(
      store.db
        .query<{ key: number; id: string }, []>("SELECT key, id FROM vectors")
        .all()
        .map((r) => [r.key, r.id] as const),
    );
    const saved = this.file(storeId, "usearch");
    const epoch = this.stateOf(store.db, "epoch");
    if (existsSync(saved) && this.stateOf(store.db, "saved_epoch") === epoch) {
      const graph = newGraph(dimensions);
      graph.load(saved);
      if (graph.size() === ids.size) return { graph, dimensions, ids };
    }
    const graph = newGraph(dimensions);
    const page = store.db.query<{ key: number; vector: Uint8Array }, [number, number]>(
      "SELECT key, vector FROM vectors WHERE key > ? ORDER BY key LIMIT ?",
    );
    for (let after = 0; ; ) {
      const rows = page.all(after, LOAD_SLICE);
      for (let i = 0; i < rows.length; i += GRAPH_SLICE) {
        for (const row of rows.slice(i, i + GRAPH_SLICE)) graph.add(BigInt(row.key), vectorOf(row.vector));
        await yieldToEventLoop();
      }
      if (rows.length < LOAD_SLICE) break;
      after = rows.at(-1)!.key;
    }
    const held = { graph, dimensions, ids };
    this.scheduleSave(storeId, store);
    return held;
  }

  /** Saves the graph once writes have been quiet a while (its epoch beside it). */
  private scheduleSave(storeId: string, store: OpenStore): void {
    if (store.saveTimer) clearTimeout(store.saveTimer);
    store.saveTimer = setTimeout(() => {
      store.saveTimer = null;
      // A store dropped or closed meanwhile is not saved.
      if (this.stores.get(storeId) === store) void this.save(storeId, store);
    }, SAVE_AFTER_MS);
    store.saveTimer.unref?.();
  }

  private async save(storeId: string, store: OpenStore): Promise<void> {
    const held = await store.graph?.catch(() => null);
    if (!held) return;
    const path = this.file(storeId, "usearch");
    // Synchronous from here: no write can come between the epoch read and the graph saved.
    const epoch = this.stateOf(store.db, "epoch");
    held.graph.save(`${path}.tmp`);
    renameSync(`${path}.tmp`, path);
    this.setState(store.db, "saved_epoch", epoch);
  }

  async put(storeId: string, vectors: readonly StoredVector[]): Promise<void> {
    if (vectors.length === 0) return;
    const store = this.store(storeId);
    const length = vectors[0]!.vector.length;
    if (vectors.some((v) => v.vector.length !== length)) throw new Error("vectors of one put must share one length");
    let held = await this.held(storeId, store);
    if (held && held.dimensions !== length) {
      // Another model: the store's vectors are all made again.
      store.db.exec("DELETE FROM vectors");
      held = null;
    }
    if (!held) {
      held = { graph: newGraph(length), dimensions: length, ids: new Map() };
      store.graph = Promise.resolve(held);
    }
    const find = store.db.query<{ key: number }, [string]>("SELECT key FROM vectors WHERE id = ?");
    const update = store.db.query("UPDATE vectors SET hash = ?, vector = ? WHERE key = ?");
    const insert = store.db.query("INSERT INTO vectors (id, hash, vector) VALUES (?, ?, ?)");
    const keys = store.db.transaction(() => {
      this.setState(store.db, "epoch", this.stateOf(store.db, "epoch") + 1);
      return vectors.map((v) => {
        const existing = find.get(v.id);
        if (!existing) return { key: Number(insert.run(v.id, v.hash, blobOf(v.vector)).lastInsertRowid), replaced: false };
        update.run(v.hash, blobOf(v.vector), existing.key);
        return { key: existing.key, replaced: true };
      });
    })();
    for (let i = 0; i < vectors.length; i += GRAPH_SLICE) {
      for (let j = i; j < Math.min(vectors.length, i + GRAPH_SLICE); j++) {
        const { key, replaced } = keys[j]!;
        if (replaced) held.graph.remove(BigInt(key));
        held.graph.add(BigInt(key), vectors[j]!.vector);
        held.ids.set(key, vectors[j]!.id);
      }
      await yieldToEventLoop();
    }
    this.scheduleSave(storeId, store);
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const store = this.store(storeId);
    const held = await this.held(storeId, store);
    const gone = store.db.transaction(() => {
      this.setState(store.db, "epoch", this.stateOf(store.db, "epoch") + 1);
      return store.db
        .query<{ key: number }, [string]>("DELETE FROM vectors WHERE id IN (SELECT value FROM json_each(?)) RETURNING key")
        .all(JSON.stringify(ids));
    })();
    for (const { key } of gone) {
      held?.graph.remove(BigInt(key));
      held?.ids.delete(key);
    }
    this.scheduleSave(storeId, store);
  }

  async hashes(storeId: string): Promise<Map<string, string>> {
    const rows = this.store(storeId).db.query<{ id: string; hash: string }, []>("SELECT id, hash FROM vectors").all();
    return new Map(rows.map((r) => [r.id, r.hash]));
  }

  async nearest(storeId: string, vector: Float32Array, k: number): Promise<VectorNeighbour[]> {
    const held = await this.held(storeId, this.store(storeId));
    const count = Math.min(k, MAX_NEIGHBOURS, held?.ids.size ?? 0);
    if (!held || count <= 0 || vector.length !== held.dimensions) return [];
    const found = held.graph.search(vector, count, 0);
    const out: VectorNeighbour[] = [];
    found.keys.forEach((key, i) => {
      const id = held.ids.get(Number(key));
      if (id !== undefined) out.push({ id, similarity: 1 - found.distances[i]! });
    });
    return out;
  }

  async similarities(storeId: string, vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = this.store(storeId)
      .db.query<{ id: string; vector: Uint8Array }, [string]>("SELECT id, vector FROM vectors WHERE id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(ids));
    return new Map(rows.filter((r) => r.vector.byteLength === vector.byteLength).map((r) => [r.id, cosine(vector, vectorOf(r.vector))]));
  }

  async dropStore(storeId: string): Promise<void> {
    const open = this.stores.get(storeId);
    this.stores.delete(storeId);
    if (open?.saveTimer) clearTimeout(open.saveTimer);
    await open?.graph?.catch(() => null);
    open?.db.close();
    const file = this.file(storeId, "sqlite");
    for (const path of [file, `${file}-wal`, `${file}-shm`, this.file(storeId, "usearch")]) if (existsSync(path)) rmSync(path);
  }

  /** Saves every graph that has unsaved writes, then closes the files. */
  async close(): Promise<void> {
    const open = [...this.stores.entries()];
    this.stores.clear();
    for (const [storeId, store] of open) {
      if (store.saveTimer) {
        clearTimeout(store.saveTimer);
        await this.save(storeId, store).catch(() => {});
      }
      await store.graph?.catch(() => null);
      store.db.close();
    }
  }
}
