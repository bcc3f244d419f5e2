import type { Client } from "typesense";
import { chunked } from "../../lib/chunked.ts";
import { EngineTransientError } from "../errors.ts";
import { queryCorrections, TypoVocabulary } from "../../text/typo-vocabulary.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, PreparedDocument, SearchEngine, WordCorrection } from "../types.ts";
import { ownPrepared } from "./typesense-preparer.ts";
import {
  aliasName,
  collectionSchema,
  decodeVocabulary,
  facetKeyOf,
  isStoreCollection,
  KNOWN_NUMBERS,
  newCollectionName,
  numberField,
  numberNameOf,
  storedNumber,
  toTypesenseDocument,
  type TypesenseDocument,
  vocabularyPairs,
} from "./collection-schema.ts";
import { CollectionMissingError, errorForStatus, isAlreadyExists, isNotFound, toEngineError } from "./error-mapping.ts";
import { assertReachable, checkNodes, describeUnhealthy, type NodeHealth } from "./node-health.ts";
import { SearchRun, type SearchRunOptions, type TsSearchResult } from "./search-runner.ts";
import { filterableId, idsFilter, type KnownFields, MAX_PER_PAGE, type SearchParams } from "./search-params.ts";
import { VocabularyCache } from "./vocabulary-cache.ts";
import { createClient, multiSearch, type TypesenseClientOptions } from "./typesense-client.ts";

/*
 * The scale-out adapter: the SearchEngine port over a Typesense cluster, through the official client. Server
 * replicas stay stateless apart from caches (the typo vocabulary and each collection's field list), so any
 * number of them can share one cluster. Layout of a store's collection: collection-schema.ts; how a search
 * becomes Typesense queries: search-runner.ts; error mapping: error-mapping.ts.
 *
 * Writes and versions: before an upsert the adapter reads the stored versions of the batch (a filter_by
 * id:=[...] search) and leaves out documents whose stored version is newer; equal versions are written again
 * (a batch repeated after a crash). Between that read and the import another writer could store a newer
 * version that this import then overwrites. That race needs two concurrent writers of one store. The
 * service's two (the indexing worker and the enrichment sync) take turns per store, on the replica holding the
 * store's lease (modules/indexing/store-writers.ts), so the race does not arise; a reindex writes a separate
 * collection and is not a concurrent writer.
 */

export interface TypesenseEngineOptions extends TypesenseClientOptions {
  /** Documents per import request (default 1000). */
  importBatchSize?: number;
  /** Facet values returned per key (default 250; the service shows at most 200). */
  maxFacetValues?: number;
  /** Distinct values read to build range facet buckets exactly like the embedded engine (default 1000). */
  rangeFacetValues?: number;
  /** Prefix and typo candidates Typesense considers per query word (default 16; Typesense's own default is 4). */
  maxCandidates?: number;
  /** Most `_eval` expressions for one bucket sort (newc, newc2) before deep pages fall back to plain values (default 100). */
  maxBucketExpressions?: number;
  /** How often each replica rebuilds a store's typo vocabulary from an export (default 300 s). */
  vocabularyRefreshSeconds?: number;
  /** How long a collection's field list is cached (default 30 s). */
  schemaRefreshSeconds?: number;
  now?: () => number;
  /** For the start-up health check (default: global fetch). */
  fetch?: typeof fetch;
}

interface StoredState {
  version: number;
  seq: number;
  vocab?: string;
}

interface FieldsEntry {
  fields: KnownFields | null;
  loadedAt: number;
}

/** Ids per delete-by-filter request: the filter travels in the URL. */
const DELETE_CHUNK_CHARS = 4000;
/** An unknown store is re-checked this often even when the field list is cached for longer. */
const MISSING_STORE_RECHECK_MS = 5000;

const EMPTY_RESULT: EngineSearchResult = { total: 0, hits: [], facets: {}, ranges: {} };

/** Public methods only ever throw engine errors: a missing collection that escapes is the cluster changing under us. */
function publicError(error: unknown, doing: string): Error {
  const mapped = toEngineError(error, doing);
  return mapped instanceof CollectionMissingError
    ? new EngineTransientError(`Typesense collection disappeared while ${doing}: ${mapped.message}`)
    : mapped;
}

export class TypesenseEngine implements SearchEngine {
  readonly kind = "typesense";
  private readonly client: Client;
  private readonly now: () => number;
  private readonly vocabularies: VocabularyCache;
  private readonly fieldCache = new Map<string, FieldsEntry>();
  private readonly ensured = new Map<string, Promise<void>>();
  private readonly searchOptions: SearchRunOptions;
  private lastSeq = 0;

  constructor(private readonly opts: TypesenseEngineOptions) {
    this.now = opts.now ?? Date.now;
    this.client = createClient(opts);
    this.vocabularies = new VocabularyCache({
      load: (storeId) => this.loadVocabulary(storeId),
      refreshMs: (opts.vocabularyRefreshSeconds ?? 300) * 1000,
      now: this.now,
    });
    this.searchOptions = {
      maxFacetValues: opts.maxFacetValues ?? 250,
      rangeFacetValues: opts.rangeFacetValues ?? 1000,
      maxCandidates: opts.maxCandidates ?? 16,
      maxBucketExpressions: opts.maxBucketExpressions ?? 100,
    };
  }

  /**
   * Start-up check: GET /health on every node, then one authenticated call to verify the API key. Throws
   * (naming every node and its problem) when no node answers; returns each node's state so the caller can
   * log a line per unreachable node.
   */
  async check(): Promise<string[]> {
    return describeUnhealthy(await this.start());
  }

  async start(): Promise<NodeHealth[]> {
    const timeoutMs = (this.opts.connectionTimeoutSeconds ?? 5) * 1000;
    const nodes = this.opts.nodes.map((url) => url.replace(/\/+$/, ""));
    const health = await checkNodes(nodes, this.opts.fetch ?? fetch, timeoutMs);
    assertReachable(health);
    try {
      await this.client.aliases().retrieve();
    } catch (error) {
      throw publicError(error, "checking TYPESENSE_API_KEY (GET /aliases)");
    }
    return health;
  }

  // ---------------------------------------------------------------------------------------------- writes

  upsertPrepared(storeId: string, docs: readonly PreparedDocument[]): Promise<void> {
    return this.upsert(storeId, ownPrepared(docs));
  }

  async upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.ensureCollection(storeId);
      // One document per id: the highest version, the later one among equals (as applying them in order would).
      const latest = new Map<string, EngineDocument>();
      for (const doc of docs) {
        const seen = latest.get(doc.id);
        if (!seen || doc.version >= seen.version) latest.set(doc.id, doc);
      }
      const current = await this.readStored(storeId, [...latest.keys()], "id,version,seq,vocab");
      const writes = [...latest.values()].filter((doc) => !((current.get(doc.id)?.version ?? -Infinity) > doc.version));
      if (writes.length === 0) return;
      const documents = writes.map((doc) => toTypesenseDocument(doc, current.get(doc.id)?.seq ?? this.nextSeq()));
      await this.withCollection(storeId, () => this.importDocuments(storeId, documents, "upsert"));
      const replaced = writes.filter((doc) => current.has(doc.id)).map((doc) => decodeVocabulary(current.get(doc.id)!.vocab));
      this.vocabularies.apply(storeId, replaced, writes.map(vocabularyPairs));
      this.noteFields(storeId, documents);
    } catch (error) {
      throw publicError(error, `indexing ${docs.length} documents of store ${storeId}`);
    }
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      const current = await this.readStored(storeId, [...new Set(ids)], "id,version,seq,vocab");
      const present = [...current.keys()];
      if (present.length === 0) return;
      const documents = this.client.collections(aliasName(storeId)).documents();
      for (const chunk of this.deleteChunks(present.filter(filterableId))) await documents.delete({ filter_by: idsFilter(chunk) });
      for (const id of present.filter((id) => !filterableId(id))) {
        try {
          await this.client.collections(aliasName(storeId)).documents(id).delete();
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      this.vocabularies.apply(
        storeId,
        present.map((id) => decodeVocabulary(current.get(id)!.vocab)),
        [],
      );
    } catch (error) {
      if (isNotFound(error)) return;
      throw publicError(error, `removing ${ids.length} documents of store ${storeId}`);
    }
  }

  /** Partial updates (`import` with action=update); null removes the number. Absent ids are ignored. */
  async setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void> {
    if (updates.length === 0) return;
    try {
      const fields = await this.fields(storeId);
      if (!fields) return;
      const documents: TypesenseDocument[] = [];
      for (const u of updates) {
        const doc: Record<string, number | string | null> = { id: u.id };
        for (const [name, value] of Object.entries(u.numbers)) {
          if (value === null) {
            // Only a field the collection has can be unset; an unknown number is absent already.
            if (fields.numbers.has(name)) doc[numberField(name)] = null;
          } else if (Number.isFinite(value)) {
            doc[numberField(name)] = storedNumber(name, value);
          }
        }
        if (Object.keys(doc).length > 1) documents.push(doc as TypesenseDocument);
      }
      if (documents.length === 0) return;
      await this.importDocuments(storeId, documents, "update");
      this.noteFields(storeId, documents);
    } catch (error) {
      if (isNotFound(error)) return;
      throw publicError(error, `updating numbers of store ${storeId}`);
    }
  }

  /**
   * Rebuilds a store's collection from `docs` into a NEW collection, then moves the alias to it and drops the
   * old one: searches keep using the old collection until the new one is complete. Writes that go to the old
   * collection while this runs are lost with it: the caller applies the catalog's changes since its start again
   * afterwards (modules/indexing/store-reindex.ts). Ids repeated in `docs` keep their highest version.
   */
  async reindexStore(
    storeId: string,
    docs: AsyncIterable<EngineDocument> | Iterable<EngineDocument>,
  ): Promise<{ index: string; documents: number }> {
    const alias = aliasName(storeId);
    // Documents keep their insertion order (the last tie-break of every sort), so a reindex reorders no ties.
    const seqs = new Map((await this.exportDocuments(storeId, "id,seq")).map((d) => [String(d.id), Number(d.seq)]));
    const collection = await this.createCollection(storeId);
    const vocabulary = new TypoVocabulary();
    const written = new Map<string, { version: number; pairs: [string, string][] }>();
    const batchSize = this.opts.importBatchSize ?? 1000;
    let batch: EngineDocument[] = [];
    const flush = async () => {
      const latest = new Map<string, EngineDocument>();
      for (const doc of batch) {
        const prior = latest.get(doc.id)?.version ?? written.get(doc.id)?.version;
        if (prior === undefined || doc.version >= prior) latest.set(doc.id, doc);
      }
      batch = [];
      const docsToWrite = [...latest.values()];
      if (docsToWrite.length === 0) return;
      await this.importInto(
        collection,
        docsToWrite.map((doc) => toTypesenseDocument(doc, seqs.get(doc.id) ?? this.nextSeq())),
        "upsert",
      );
      for (const doc of docsToWrite) {
        const before = written.get(doc.id);
        if (before) vocabulary.count(before.pairs, -1);
        const pairs = vocabularyPairs(doc);
        vocabulary.count(pairs, 1);
        written.set(doc.id, { version: doc.version, pairs });
      }
    };
    try {
      for await (const doc of docs) {
        batch.push(doc);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
      let previous: string | null = null;
      try {
        previous = (await this.client.aliases(alias).retrieve()).collection_name;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      await this.client.aliases().upsert(alias, { collection_name: collection });
      if (previous && previous !== collection) await this.dropCollection(previous);
    } catch (error) {
      await this.dropCollection(collection).catch(() => undefined);
      throw publicError(error, `reindexing store ${storeId}`);
    }
    this.ensured.set(storeId, Promise.resolve());
    this.fieldCache.delete(storeId);
    this.vocabularies.replace(storeId, vocabulary);
    return { index: collection, documents: written.size };
  }

  async dropStore(storeId: string): Promise<void> {
    const alias = aliasName(storeId);
    try {
      try {
        await this.client.aliases(alias).delete();
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      // The live collection and any leftover of an interrupted reindex.
      const all = await this.client.collections().retrieve({ exclude_fields: "fields" });
      for (const c of all) if (isStoreCollection(storeId, c.name)) await this.dropCollection(c.name);
    } catch (error) {
      throw publicError(error, `dropping store ${storeId}`);
    } finally {
      this.ensured.delete(storeId);
      this.fieldCache.delete(storeId);
      this.vocabularies.forget(storeId);
    }
  }

  // ----------------------------------------------------------------------------------------------- reads

  async search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult> {
    try {
      for (let attempt = 0; ; attempt++) {
        const fields = await this.fields(storeId, attempt > 0 ? 0 : undefined, request);
        if (!fields) return EMPTY_RESULT;
        // The vocabulary decides known word pairs and typed-or-folded forms (search-params.ts: queryTokens).
        const vocabulary = request.text.trim() ? await this.vocabularies.get(storeId) : null;
        const run = new SearchRun({
          multiSearch: (searches) => this.multiSearch(searches),
          collection: aliasName(storeId),
          fields,
          vocabulary,
          options: this.searchOptions,
        });
        try {
          return await run.search(request);
        } catch (error) {
          // The collection went away (or a field it had): look again once, then it is an empty store.
          if (!isNotFound(error)) throw error;
          if (attempt > 0) return EMPTY_RESULT;
        }
      }
    } catch (error) {
      throw publicError(error, `searching store ${storeId}`);
    }
  }

  /** Same rules as the embedded engine, over this replica's vocabulary of the store. */
  async corrections(storeId: string, text: string): Promise<WordCorrection[]> {
    let vocabulary: TypoVocabulary;
    try {
      vocabulary = await this.vocabularies.get(storeId);
    } catch (error) {
      throw publicError(error, `reading the vocabulary of store ${storeId}`);
    }
    return queryCorrections(vocabulary, text);
  }

  async count(storeId: string): Promise<number> {
    try {
      const result = await this.client.collections(aliasName(storeId)).documents().search({ q: "*", per_page: 0 });
      return result.found;
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw publicError(error, `counting store ${storeId}`);
    }
  }

  async versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>> {
    try {
      const stored = await this.readStored(storeId, [...new Set(ids)], "id,version");
      return new Map([...stored].map(([id, s]) => [id, s.version]));
    } catch (error) {
      throw publicError(error, `reading versions of store ${storeId}`);
    }
  }

  async close(): Promise<void> {
    await this.vocabularies.close();
  }

  // ------------------------------------------------------------------------------------------- internals

  /** Insertion order for new documents: increasing within this process and across restarts (clock-based). */
  private nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, this.now() * 1000);
    return this.lastSeq;
  }

  /** Runs searches in multi_search requests; a search's own error status is mapped like a request's. */
  private multiSearch(searches: SearchParams[]): Promise<TsSearchResult[]> {
    return multiSearch(this.client, searches);
  }

  /**
   * The collection's facet keys and numbers (from GET /collections/<alias>, cached), or null when the store
   * has no collection. A filter on a key the cache does not know re-reads it once, in case another replica
   * indexed the first document with that key.
   */
  private async fields(storeId: string, maxAgeMs?: number, request?: EngineSearchRequest): Promise<KnownFields | null> {
    const cached = this.fieldCache.get(storeId);
    const ttl = maxAgeMs ?? (cached?.fields ? (this.opts.schemaRefreshSeconds ?? 30) * 1000 : MISSING_STORE_RECHECK_MS);
    let entry = cached && this.now() - cached.loadedAt < ttl ? cached : await this.loadFields(storeId);
    const unknownKey = request?.filters.some((f) =>
      f.kind === "terms" || f.kind === "excludeTerms"
        ? !entry.fields?.facetKeys.has(f.key)
        : f.kind === "range"
          ? !entry.fields?.numbers.has(f.field)
          : false,
    );
    if (entry.fields && unknownKey && entry === cached && this.now() - entry.loadedAt > 1000) entry = await this.loadFields(storeId);
    return entry.fields;
  }

  private async loadFields(storeId: string): Promise<FieldsEntry> {
    let fields: KnownFields | null = null;
    try {
      const schema = await this.client.collections(aliasName(storeId)).retrieve();
      const facetKeys = new Set<string>();
      const numbers = new Set<string>(Object.keys(KNOWN_NUMBERS));
      for (const f of schema.fields ?? []) {
        const key = facetKeyOf(f.name);
        if (key !== null) facetKeys.add(key);
        else if (numberNameOf(f.name) !== null) numbers.add(numberNameOf(f.name)!);
      }
      fields = { facetKeys, numbers };
    } catch (error) {
      if (!isNotFound(error)) throw toEngineError(error, `reading the schema of store ${storeId}`);
    }
    const entry = { fields, loadedAt: this.now() };
    this.fieldCache.set(storeId, entry);
    return entry;
  }

  /** A write that brings a facet key or number the cached field list lacks makes it stale. */
  private noteFields(storeId: string, documents: readonly TypesenseDocument[]): void {
    const cached = this.fieldCache.get(storeId);
    if (!cached?.fields) {
      this.fieldCache.delete(storeId);
      return;
    }
    for (const doc of documents) {
      for (const name of Object.keys(doc)) {
        const key = facetKeyOf(name);
        const number = numberNameOf(name);
        if ((key !== null && !cached.fields.facetKeys.has(key)) || (number !== null && !cached.fields.numbers.has(number))) {
          this.fieldCache.delete(storeId);
          return;
        }
      }
    }
  }

  private async loadVocabulary(storeId: string): Promise<TypoVocabulary> {
    const vocabulary = new TypoVocabulary();
    for (const doc of await this.exportDocuments(storeId, "id,vocab"))
      vocabulary.count(decodeVocabulary(doc.vocab as string | undefined), 1);
    return vocabulary;
  }

  /** Some fields of every document of the store (none when it has no collection). */
  private async exportDocuments(storeId: string, includeFields: string): Promise<Record<string, unknown>[]> {
    let exported: string;
    try {
      const answer: unknown = await this.client.collections(aliasName(storeId)).documents().export({ include_fields: includeFields });
      // The client parses a JSON content type: a one-document export may arrive as an object.
      exported = typeof answer === "string" ? answer : JSON.stringify(answer);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw toEngineError(error, `exporting store ${storeId}`);
    }
    return exported
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Stored version, seq and vocabulary of the ids present (filter_by id:=[...] searches in multi_search). */
  private async readStored(storeId: string, ids: readonly string[], includeFields: string): Promise<Map<string, StoredState>> {
    const out = new Map<string, StoredState>();
    const collection = aliasName(storeId);
    const put = (doc: Record<string, unknown>) =>
      out.set(String(doc.id), {
        version: Number(doc.version),
        seq: Number(doc.seq ?? 0),
        ...(typeof doc.vocab === "string" ? { vocab: doc.vocab } : {}),
      });
    try {
      const searches = [...chunked(ids.filter(filterableId), MAX_PER_PAGE)].map(
        (chunk): SearchParams => ({
          collection,
          q: "*",
          filter_by: idsFilter(chunk),
          include_fields: includeFields,
          per_page: MAX_PER_PAGE,
        }),
      );
      for (const result of searches.length ? await this.multiSearch(searches) : []) for (const hit of result.hits ?? []) put(hit.document);
      for (const id of ids.filter((id) => !filterableId(id))) {
        try {
          put(
            (await this.client.collections(collection).documents(id).retrieve({ include_fields: includeFields })) as Record<
              string,
              unknown
            >,
          );
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
    } catch (error) {
      if (isNotFound(error)) return new Map();
      throw error;
    }
    return out;
  }

  private deleteChunks(ids: readonly string[]): string[][] {
    const out: string[][] = [];
    let current: string[] = [];
    let size = 0;
    for (const id of ids) {
      if (current.length && size + id.length + 3 > DELETE_CHUNK_CHARS) {
        out.push(current);
        current = [];
        size = 0;
      }
      current.push(id);
      size += id.length + 3;
    }
    if (current.length) out.push(current);
    return out;
  }

  private async importDocuments(storeId: string, documents: readonly TypesenseDocument[], action: "upsert" | "update"): Promise<void> {
    await this.importInto(aliasName(storeId), documents, action);
  }

  /**
   * documents.import in batches; every line of the answer is checked. For an update, a missing document
   * (404) is skipped: the port ignores absent ids.
   */
  private async importInto(collection: string, documents: readonly TypesenseDocument[], action: "upsert" | "update"): Promise<void> {
    for (const batch of chunked(documents, this.opts.importBatchSize ?? 1000)) {
      let results: { success: boolean; error?: string; code?: number }[];
      try {
        results = await this.client
          .collections(collection)
          .documents()
          .import(batch as Record<string, unknown>[], { action, throwOnFail: false });
      } catch (error) {
        throw toEngineError(error, `importing into ${collection}`);
      }
      const failures = results
        .map((r, i) => ({ ...r, id: String(batch[i]?.id) }))
        .filter((r) => !r.success && !(action === "update" && r.code === 404));
      if (failures.length) {
        const rejected = failures.find((f) => f.code !== undefined && f.code >= 400 && f.code < 500 && f.code !== 404);
        const first = rejected ?? failures[0]!;
        throw errorForStatus(
          first.code ?? 500,
          `${failures.length} of ${batch.length} documents failed, e.g. ${first.id}: ${first.error ?? "unknown error"}`,
        );
      }
    }
  }

  /** Runs a write; when the collection vanished (dropped by another process), creates it again and retries once. */
  private async withCollection(storeId: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof CollectionMissingError)) throw error;
      this.ensured.delete(storeId);
      this.fieldCache.delete(storeId);
      await this.ensureCollection(storeId);
      await write();
    }
  }

  /** The store's alias and collection exist (created on the first write). */
  private ensureCollection(storeId: string): Promise<void> {
    let pending = this.ensured.get(storeId);
    if (!pending) {
      pending = (async () => {
        try {
          await this.client.aliases(aliasName(storeId)).retrieve();
        } catch (error) {
          if (!isNotFound(error)) throw toEngineError(error, `reading the alias of store ${storeId}`);
          const collection = await this.createCollection(storeId);
          await this.client.aliases().upsert(aliasName(storeId), { collection_name: collection });
          this.fieldCache.delete(storeId);
        }
      })();
      pending.catch(() => this.ensured.delete(storeId));
      this.ensured.set(storeId, pending);
    }
    return pending;
  }

  private async createCollection(storeId: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const name = newCollectionName(storeId, this.now() + attempt);
      try {
        await this.client.collections().create(collectionSchema(name) as never);
        return name;
      } catch (error) {
        if (!isAlreadyExists(error) || attempt >= 5) throw toEngineError(error, `creating collection ${name}`);
      }
    }
  }

  private async dropCollection(name: string): Promise<void> {
    try {
      await this.client.collections(name).delete();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
