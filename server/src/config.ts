import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MAX_EVENTS_PER_REQUEST } from "@storefront-search/contract";

/*
 * Every setting, read once from the environment and validated. Nothing else in the server reads process.env:
 * a bad value stops start-up with one clear line instead of surfacing later as odd behaviour.
 */

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface DemoStoreKeys {
  storeId: string;
  adminKey: string;
  searchKey: string;
  analyticsKey: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  tls: { certFile: string; keyFile: string } | null;
  logLevel: LogLevel;
  maxBodyBytes: number;
  /** "FULL" survives power loss; "NORMAL" survives a process crash only. */
  dbSynchronous: "FULL" | "NORMAL";
  /** SQLITE_MMAP_MB: how much of each SQLite file its serving connection reads mapped (0: none). */
  sqliteMmapBytes: number;
  /** SQLITE_CACHE_MB: each SQLite connection's page cache. */
  sqliteCacheKib: number;
  /** SQLITE_BULK_CACHE_MB: the page cache of the connections a bulk import writes through, while it writes. */
  sqliteBulkCacheKib: number;
  /** DATABASE_URL: the service's state on PostgreSQL, shared by replicas; null: the embedded SQLite file. */
  databaseUrl: string | null;
  /** INDEXING_LEASE_SECONDS: how long a replica's hold on a store's indexing outlives its last batch (a dead one's). */
  indexingLeaseMs: number;
  /** SEARCH_BUDGET_MS: time a search may spend before it skips optional work (fallback, spelling) and answers. */
  searchBudgetMs: number;
  /** SEARCH_LOG_SETTLE_MS: how long a shopper's typed search waits to be continued before it is logged (0: never). */
  searchLogSettleMs: number;
  demoStore: DemoStoreKeys | null;
  /** Origin that links in the demo catalog point at; default http://localhost:<port>. */
  publicUrl: string | null;
  /** The built head script the server serves at /widget/v1/widget.js. */
  widgetScriptFile: string;
  /** The InstantSearch client's built ES module, served at /widget/v1/instantsearch-client.js. */
  instantsearchClientFile: string;
  /** The built staff pages (staff-pages/dist) the server serves at /reports and /merchandising. */
  staffPagesDir: string;
  /** Where `npm start` reads the real product data from, and how many products it indexes (0: all). */
  demoCatalog: { dir: string; limit: number };
  /** Writes are refused (503) while the data directory's disk has less free space than this. */
  minFreeDiskBytes: number;
  /** Raw events and search log rows older than this many days are deleted daily; aggregates are kept. */
  retentionDays: number;
  /**
   * Token buckets: requests per second and burst, per store and client address for browser keys (search,
   * analytics), per key for admin keys; 0 requests per second turns a limit off.
   */
  /**
   * Requests per store and client address (browser keys) or per store (admin key); shopper events per store and
   * client address, or per store for an admin key, charged by the events a request carries.
   */
  rateLimits: { browser: RateLimit; admin: RateLimit; events: RateLimit; adminEvents: RateLimit };
  /** Take the client address from X-Forwarded-For (set only behind a proxy that writes it). */
  trustProxy: boolean;
  /**
   * Outgoing webhook calls: an extra trusted CA (PEM) besides the usual roots, whether receivers may be on
   * loopback or private addresses, and a factor on the retry waits (tests; never on the 5 s time-out).
   */
  webhooks: { caFile: string | null; allowPrivateNetworks: boolean; retryTimeScale: number };
  /** A Typesense cluster (TYPESENSE_NODES, TYPESENSE_API_KEY) as the search engine; null: the embedded SQLite engine. */
  typesense: { nodes: string[]; apiKey: string; connectionTimeoutSeconds: number; numRetries: number } | null;
  /** GET /metrics is served (Prometheus text format) only when set, and only to `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Product images may be fetched from loopback and private addresses (the demo serves its own; tests). */
  enrichmentAllowPrivateNetworks: boolean;
  /** Hybrid search: an OpenAI-compatible embeddings endpoint (EMBEDDINGS_URL, EMBEDDINGS_MODEL); null: off. */
  embeddings: EmbeddingsSettings | null;
  /**
   * HEAP_GROWTH: how large the JavaScript heap may grow, as a factor of what the last full collection kept,
   * before the next one (composition/heap-sizing.ts); null ("runtime"): the runtime's own rule.
   */
  heapGrowth: number | null;
}

export interface EmbeddingsSettings {
  /** The endpoint's URL: POST with `{ model, input }` answers `{ data: [{ embedding, index }] }`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey: string | null;
  /** Asked of models that can shorten their vectors (`dimensions`); null: the model's own length. */
  dimensions: number | null;
  /** Below this cosine a product is no answer to a query that found nothing (models differ in their spread). */
  minSimilarity: number;
  timeoutMs: number;
}

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid setting ${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const match = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!match) throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  return match;
}

function readableFile(env: Env, name: string): string {
  const path = resolve(env[name]!);
  if (!existsSync(path)) throw new ConfigError(name, `file not found: ${path}`);
  return path;
}

function tlsSettings(env: Env): Config["tls"] {
  const cert = env.TLS_CERT_FILE;
  const key = env.TLS_KEY_FILE;
  if (!cert && !key) return null;
  if (!cert || !key) throw new ConfigError(cert ? "TLS_KEY_FILE" : "TLS_CERT_FILE", "TLS needs both TLS_CERT_FILE and TLS_KEY_FILE");
  return { certFile: readableFile(env, "TLS_CERT_FILE"), keyFile: readableFile(env, "TLS_KEY_FILE") };
}

function demoStore(env: Env): DemoStoreKeys | null {
  const names = ["DEMO_STORE_ID", "DEMO_ADMIN_KEY", "DEMO_SEARCH_KEY", "DEMO_ANALYTICS_KEY"] as const;
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return null;
  const missing = names.filter((n) => !env[n]);
  if (missing.length) throw new ConfigError(missing[0]!, `the demo store needs all of ${names.join(", ")}`);
  for (const n of names.slice(1)) {
    if (env[n]!.length < 16) throw new ConfigError(n, "keys must be at least 16 characters");
  }
  return {
    storeId: env.DEMO_STORE_ID!,
    adminKey: env.DEMO_ADMIN_KEY!,
    searchKey: env.DEMO_SEARCH_KEY!,
    analyticsKey: env.DEMO_ANALYTICS_KEY!,
  };
}

/** Optional JSON file (CONFIG_FILE) supplies defaults; the environment wins over it. */
function withConfigFile(env: Env): Env {
  const file = env.CONFIG_FILE;
  if (!file) return env;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), "utf8"));
  } catch (error) {
    throw new ConfigError("CONFIG_FILE", `cannot read ${file}: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError("CONFIG_FILE", "must hold a JSON object of setting names to values");
  }
  const fromFile: Env = {};
  for (const [k, v] of Object.entries(parsed)) fromFile[k] = v === null ? undefined : String(v);
  return { ...fromFile, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
}

function publicUrl(env: Env): string | null {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return null;
  if (!/^https?:\/\/[^/\s]+$/.test(raw.replace(/\/$/, ""))) {
    throw new ConfigError("PUBLIC_URL", `expected an origin like https://shop.example.com, got "${raw}"`);
  }
  return raw.replace(/\/$/, "");
}

/** METRICS_TOKEN: long enough that guessing it over HTTP is hopeless, like the stores' keys. */
function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters");
  if (/\s/.test(raw)) throw new ConfigError("METRICS_TOKEN", "must not contain white space (it is sent as a Bearer token)");
  return raw;
}

/** A decimal number in (0, max], e.g. WEBHOOK_RETRY_TIME_SCALE=0.001. */
function positiveNumber(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = /^(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(raw) ? Number(raw) : NaN;
  if (!(value > 0 && value <= max)) throw new ConfigError(name, `expected a number above 0 and at most ${max}, got "${raw}"`);
  return value;
}

/**
 * HEAP_GROWTH: at 1.5 and below the runtime turns every young-generation collection into a full one (it does when
 * the room left is under a third of the heap's limit), which costs far more than the memory it saves; 1.6 keeps
 * clear of it.
 */
function heapGrowth(env: Env): number | null {
  const raw = env.HEAP_GROWTH?.trim();
  if (raw === "runtime") return null;
  const value = raw ? Number(raw) : 1.75;
  if (!(value >= 1.6 && value <= 4)) throw new ConfigError("HEAP_GROWTH", `expected a factor from 1.6 to 4 or "runtime", got "${raw}"`);
  return value;
}

/** WEBHOOK_CA_FILE must name a PEM file holding at least one certificate. */
function webhookSettings(env: Env): Config["webhooks"] {
  let caFile: string | null = null;
  if (env.WEBHOOK_CA_FILE?.trim()) {
    caFile = readableFile({ WEBHOOK_CA_FILE: env.WEBHOOK_CA_FILE.trim() }, "WEBHOOK_CA_FILE");
    if (!readFileSync(caFile, "utf8").includes("-----BEGIN CERTIFICATE-----")) {
      throw new ConfigError("WEBHOOK_CA_FILE", `${caFile} holds no PEM certificate`);
    }
  }
  return {
    caFile,
    allowPrivateNetworks: oneOf(env, "WEBHOOK_ALLOW_PRIVATE_NETWORKS", "false", ["true", "false"] as const) === "true",
    retryTimeScale: positiveNumber(env, "WEBHOOK_RETRY_TIME_SCALE", 1, 1000),
  };
}

/** TYPESENSE_NODES: comma-separated node URLs (http or https, host, optional port and path); both settings or neither. */
function typesenseSettings(env: Env): Config["typesense"] {
  const rawNodes = env.TYPESENSE_NODES?.trim();
  const apiKey = env.TYPESENSE_API_KEY?.trim();
  if (!rawNodes && !apiKey) return null;
  if (!rawNodes)
    throw new ConfigError("TYPESENSE_NODES", "TYPESENSE_API_KEY is set but no node URLs, e.g. http://ts1:8108,http://ts2:8108");
  if (!apiKey) throw new ConfigError("TYPESENSE_API_KEY", "TYPESENSE_NODES is set, so the cluster's API key is needed too");
  const nodes: string[] = [];
  for (const raw of rawNodes.split(",").map((n) => n.trim())) {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      url = null;
    }
    if (!url || !["http:", "https:"].includes(url.protocol) || !url.hostname || url.search || url.hash || url.username) {
      throw new ConfigError("TYPESENSE_NODES", `expected comma-separated URLs like http://ts1:8108, got "${raw}"`);
    }
    const node = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
    if (!nodes.includes(node)) nodes.push(node);
  }
  // The client's own failover: a request that times out or fails on one node is retried on the next.
  return {
    nodes,
    apiKey,
    connectionTimeoutSeconds: integer(env, "TYPESENSE_TIMEOUT_SECONDS", 5, 1, 300),
    numRetries: integer(env, "TYPESENSE_RETRIES", Math.max(3, nodes.length), 0, 20),
  };
}

/**
 * EMBEDDINGS_URL: the full URL of an OpenAI-compatible embeddings endpoint (e.g. https://api.openai.com/v1/embeddings,
 * or a model served on the store's own network: the operator sets it, so private addresses are allowed);
 * EMBEDDINGS_MODEL is required with it.
 */
function embeddingsSettings(env: Env): Config["embeddings"] {
  const raw = env.EMBEDDINGS_URL?.trim();
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
    throw new ConfigError("EMBEDDINGS_URL", `expected an http(s) URL like https://api.openai.com/v1/embeddings, got "${raw}"`);
  }
  const model = env.EMBEDDINGS_MODEL?.trim();
  if (!model)
    throw new ConfigError("EMBEDDINGS_MODEL", "EMBEDDINGS_URL is set, so the model to ask for is needed too (e.g. text-embedding-3-small)");
  const dimensions = integer(env, "EMBEDDINGS_DIMENSIONS", 0, 0, 8192);
  const similarityPercent = integer(env, "EMBEDDINGS_MIN_SIMILARITY_PERCENT", 30, 0, 100);
  return {
    url: url.href,
    model,
    apiKey: env.EMBEDDINGS_API_KEY?.trim() || null,
    dimensions: dimensions || null,
    minSimilarity: similarityPercent / 100,
    timeoutMs: integer(env, "EMBEDDINGS_TIMEOUT_SECONDS", 10, 1, 300) * 1000,
  };
}

/** `<NAME>_PER_SECOND` and `<NAME>_BURST`; a burst below the rate would refuse steady traffic, so it is at least the rate. */
function rateLimit(env: Env, name: string, fallback: RateLimit): RateLimit {
  const perSecond = integer(env, `${name}_PER_SECOND`, fallback.perSecond, 0, 1_000_000);
  const burst = integer(env, `${name}_BURST`, Math.max(fallback.burst, perSecond), 1, 10_000_000);
  if (burst < perSecond) throw new ConfigError(`${name}_BURST`, `must be at least ${name}_PER_SECOND (${perSecond}), got ${burst}`);
  return { perSecond, burst };
}

/** Shopper events per second: a burst must hold the largest batch a request may send, or that batch never goes. */
function eventsLimit(env: Env, name: string, fallback: RateLimit): RateLimit {
  const limit = rateLimit(env, name, fallback);
  if (limit.perSecond > 0 && limit.burst < MAX_EVENTS_PER_REQUEST) {
    throw new ConfigError(
      `${name}_BURST`,
      `must be at least ${MAX_EVENTS_PER_REQUEST} (the largest batch of events a request may send), got ${limit.burst}`,
    );
  }
  return limit;
}

const REPO_ROOT = resolve(import.meta.dir, "../..");

/**
 * DATABASE_URL moves the service's state to PostgreSQL, shared by replicas. The embedded search engine lives in
 * one process, so several replicas need Typesense: with the embedded engine, DATABASE_URL is accepted only when
 * SINGLE_REPLICA=true says that this is the only process (otherwise replicas would each hold a different index).
 */
function databaseUrl(env: Env, typesense: Config["typesense"]): string | null {
  const url = env.DATABASE_URL?.trim();
  const single = oneOf(env, "SINGLE_REPLICA", "false", ["true", "false"] as const) === "true";
  if (!url) return null;
  if (!/^postgres(ql)?:\/\/./.test(url)) throw new ConfigError("DATABASE_URL", "must be a postgres:// or postgresql:// URL");
  if (!typesense && !single) {
    throw new ConfigError(
      "DATABASE_URL",
      "the embedded search engine serves one process: set TYPESENSE_NODES (and TYPESENSE_API_KEY) for several replicas, or SINGLE_REPLICA=true to run just this one",
    );
  }
  return url;
}

/**
 * Time one search may spend before it stops doing optional work (spell suggestions, fallback attempts) and answers
 * with what it has, unless SEARCH_BUDGET_MS says otherwise. A single engine step cannot be interrupted;
 * text/query-limits.ts keeps each one short.
 */
export const SEARCH_BUDGET_MS = 250;

/** How much of a SQLite file a connection reads mapped unless SQLITE_MMAP_MB says otherwise (connection.ts says why). */
export const SQLITE_MMAP_MB = 0;

/** Each SQLite connection's page cache unless SQLITE_CACHE_MB says otherwise (connection.ts says why). */
export const SQLITE_CACHE_MB = 8;

/** The writing connections' page cache during a bulk import unless SQLITE_BULK_CACHE_MB says otherwise (bulk-cache.ts). */
export const SQLITE_BULK_CACHE_MB = 128;

export function loadConfig(rawEnv: Env): Config {
  const env = withConfigFile(rawEnv);
  const typesense = typesenseSettings(env);
  return {
    databaseUrl: databaseUrl(env, typesense),
    indexingLeaseMs: integer(env, "INDEXING_LEASE_SECONDS", 30, 1, 3600) * 1000,
    searchLogSettleMs: integer(env, "SEARCH_LOG_SETTLE_MS", 3000, 0, 60_000),
    searchBudgetMs: integer(env, "SEARCH_BUDGET_MS", SEARCH_BUDGET_MS, 50, 10_000),
    port: integer(env, "PORT", 8080, 0, 65535),
    host: env.HOST?.trim() || "0.0.0.0",
    dataDir: resolve(env.DATA_DIR?.trim() || "./data"),
    tls: tlsSettings(env),
    logLevel: oneOf(env, "LOG_LEVEL", "info", ["debug", "info", "warn", "error", "silent"] as const),
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    dbSynchronous: oneOf(env, "DB_SYNCHRONOUS", "FULL", ["FULL", "NORMAL"] as const),
    sqliteMmapBytes: integer(env, "SQLITE_MMAP_MB", SQLITE_MMAP_MB, 0, 1_048_576) * 1024 * 1024,
    sqliteCacheKib: integer(env, "SQLITE_CACHE_MB", SQLITE_CACHE_MB, 1, 65_536) * 1024,
    sqliteBulkCacheKib: integer(env, "SQLITE_BULK_CACHE_MB", SQLITE_BULK_CACHE_MB, 1, 65_536) * 1024,
    demoStore: demoStore(env),
    publicUrl: publicUrl(env),
    typesense,
    minFreeDiskBytes: integer(env, "MIN_FREE_DISK_MB", 64, 0, 10_000_000) * 1024 * 1024,
    retentionDays: integer(env, "RETENTION_DAYS", 400, 1, 36_500),
    webhooks: webhookSettings(env),
    rateLimits: {
      browser: rateLimit(env, "RATE_LIMIT_BROWSER", { perSecond: 100, burst: 200 }),
      admin: rateLimit(env, "RATE_LIMIT_ADMIN", { perSecond: 50, burst: 200 }),
      events: eventsLimit(env, "RATE_LIMIT_EVENTS", { perSecond: 200, burst: 2_000 }),
      adminEvents: eventsLimit(env, "RATE_LIMIT_ADMIN_EVENTS", { perSecond: 5_000, burst: 20_000 }),
    },
    trustProxy: oneOf(env, "TRUST_PROXY", "false", ["true", "false"] as const) === "true",
    metricsToken: metricsToken(env),
    enrichmentAllowPrivateNetworks: oneOf(env, "ENRICHMENT_ALLOW_PRIVATE_NETWORKS", "false", ["true", "false"] as const) === "true",
    embeddings: embeddingsSettings(env),
    heapGrowth: heapGrowth(env),
    widgetScriptFile: resolve(env.WIDGET_SCRIPT_FILE?.trim() || resolve(REPO_ROOT, "widget/dist/widget.js")),
    instantsearchClientFile: resolve(
      env.INSTANTSEARCH_CLIENT_FILE?.trim() || resolve(REPO_ROOT, "instantsearch-client/dist/instantsearch-client.js"),
    ),
    staffPagesDir: resolve(env.STAFF_PAGES_DIR?.trim() || resolve(REPO_ROOT, "staff-pages/dist")),
    demoCatalog: {
      dir: resolve(env.DEMO_CATALOG_DIR?.trim() || resolve(REPO_ROOT, "demo-store/data")),
      limit: integer(env, "DEMO_CATALOG_LIMIT", 0, 0, 10_000_000),
    },
  };
}
