/*
 * The service's durable state on PostgreSQL (DATABASE_URL), table for table what schema.ts keeps in SQLite, in
 * PostgreSQL's types: millisecond times as BIGINT, hashes as BYTEA; text keys compare byte by byte (COLLATE "C"),
 * as SQLite's do, so lists come in the same order on both. Tables move here as their repositories gain a
 * PostgreSQL implementation. Append new migrations; never edit an applied one.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE stores (
    id          TEXT COLLATE "C" PRIMARY KEY,
    created_at  BIGINT NOT NULL,
    settings    TEXT NOT NULL DEFAULT '{}'
  );

  -- Only a SHA-256 of each key is stored. A rotated key keeps working until expires_at (grace period).
  CREATE TABLE api_keys (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('admin', 'search', 'analytics')),
    key_hash    BYTEA NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT
  );
  CREATE INDEX api_keys_store ON api_keys(store_id);
  CREATE INDEX api_keys_hash ON api_keys(key_hash);
  `,
  `
  -- A store's synonym sets: input NULL for a multi-way set, the phrase typed for a one-way one; synonyms is a
  -- JSON array of words or phrases.
  CREATE TABLE synonyms (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id          TEXT COLLATE "C" NOT NULL,
    input       TEXT,
    synonyms    TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (store_id, id)
  );
  `,
  `
  -- Query rules (merchandising): a store's rule as its JSON (modules/rules/rule-schema.ts), read whole per store.
  CREATE TABLE query_rules (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id          TEXT COLLATE "C" NOT NULL,
    rule        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (store_id, id)
  );
  `,
  `
  -- Shopper events, appended as received; seq is their arrival order.
  CREATE TABLE events (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    type         TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    user_id      TEXT,
    session_id   TEXT,
    api_version  TEXT NOT NULL,
    data         TEXT NOT NULL
  );
  CREATE INDEX events_store_time ON events(store_id, received_at, seq);
  CREATE INDEX events_user ON events(store_id, user_id) WHERE user_id IS NOT NULL;

  -- Ranking signals derived from events (sortBy=purchase); orders already counted; one buyer a product a day.
  CREATE TABLE product_signals (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    purchases   DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, product_id)
  );
  CREATE TABLE counted_orders (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    order_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, order_id)
  );
  CREATE TABLE purchase_buyers (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    actor       TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, day, actor, product_id)
  );

  -- Complete the look, learned: evidence that two products go together, one row per direction; look clicks
  -- already counted (one per session and pair).
  CREATE TABLE look_pairs (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    other_id    TEXT NOT NULL,
    evidence    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (store_id, product_id, other_id)
  );
  CREATE TABLE look_clicks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id  TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    other_id    TEXT NOT NULL,
    PRIMARY KEY (store_id, session_id, product_id, other_id)
  );
  `,
  `
  -- Webhook subscriptions (a deleted one stays as a tombstone) and the outbox: one row per call to make.
  -- next_attempt_at is set while a delivery waits, NULL while an attempt is in flight (in_flight: its number,
  -- in_flight_at: when it was claimed, which the claim's lease counts from) and once it is done.
  CREATE TABLE webhook_subscriptions (
    id          TEXT PRIMARY KEY,
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    topic       TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    deleted     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX webhook_subscriptions_store ON webhook_subscriptions(store_id, topic) WHERE deleted = 0;
  CREATE TABLE webhook_deliveries (
    seq              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT NOT NULL,
    product_version  BIGINT NOT NULL,
    stage            TEXT NOT NULL,
    body             TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dead')),
    attempts         TEXT NOT NULL DEFAULT '[]',
    round_attempts   INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT,
    in_flight        INTEGER,
    in_flight_at     BIGINT,
    created_at       BIGINT NOT NULL,
    finished_at      BIGINT
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(subscription_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
  CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries(in_flight_at) WHERE in_flight IS NOT NULL;
  CREATE INDEX webhook_deliveries_listed ON webhook_deliveries(subscription_id, seq);
  CREATE INDEX webhook_deliveries_product ON webhook_deliveries(subscription_id, product_id, seq);
  CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(finished_at) WHERE finished_at IS NOT NULL;
  `,
  `
  -- Looks a store curated for a product (a JSON list of looks, each a list of product ids).
  CREATE TABLE pinned_looks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    looks       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (store_id, product_id)
  );
  `,
  `
  -- Every search, for reports and suggestions; per query (normalized text) how often it was searched, by how
  -- many distinct shoppers (their hashes kept only until there are enough) and how many results it last had;
  -- the latest first page per query, the store's own and ours (the preprod report).
  CREATE TABLE search_log (
    seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    at            BIGINT NOT NULL,
    query         TEXT,
    collection    TEXT,
    result_count  BIGINT NOT NULL,
    fallback      INTEGER NOT NULL,
    user_id       TEXT,
    session_id    TEXT,
    preprod       INTEGER NOT NULL
  );
  CREATE INDEX search_log_store_time ON search_log(store_id, at);
  CREATE INDEX search_log_user ON search_log(store_id, user_id) WHERE user_id IS NOT NULL;
  CREATE TABLE query_stats (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query         TEXT COLLATE "C" NOT NULL,
    searches      BIGINT NOT NULL,
    shoppers      BIGINT NOT NULL DEFAULT 0,
    result_count  BIGINT NOT NULL,
    last_at       BIGINT NOT NULL,
    PRIMARY KEY (store_id, query)
  );
  CREATE TABLE query_shoppers (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query     TEXT NOT NULL,
    shopper   BIGINT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (store_id, query, shopper)
  );
  CREATE TABLE query_answers (
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    source       TEXT NOT NULL CHECK (source IN ('theirs', 'ours')),
    query        TEXT NOT NULL,
    total        BIGINT NOT NULL,
    product_ids  TEXT NOT NULL,
    at           BIGINT NOT NULL,
    PRIMARY KEY (store_id, source, query)
  );
  `,
  `
  -- The catalog (source of truth for products; the engine can always be rebuilt from it), each product's
  -- pre-shaped Search product JSON, and the indexing queue: tasks in acknowledgement order, their payloads kept
  -- until they end, and which replica applies a store's tasks (a lease; see tasks-repository.ts).
  CREATE TABLE products (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id            TEXT COLLATE "C" NOT NULL,
    version       BIGINT NOT NULL,
    content_hash  TEXT,
    doc           TEXT,
    deleted       SMALLINT NOT NULL DEFAULT 0,
    updated_at    BIGINT NOT NULL,
    PRIMARY KEY (store_id, id)
  );
  CREATE INDEX products_changed ON products(store_id, updated_at);
  CREATE TABLE search_products (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id        TEXT COLLATE "C" NOT NULL,
    shaping   TEXT NOT NULL,
    json      TEXT NOT NULL,
    PRIMARY KEY (store_id, id)
  );
  CREATE TABLE tasks (
    seq             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    store_id        TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('upsert', 'delete')),
    status          TEXT NOT NULL CHECK (status IN ('pending', 'complete', 'error')),
    item_count      BIGINT NOT NULL,
    cursor          BIGINT NOT NULL DEFAULT 0,
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_run_at     BIGINT NOT NULL DEFAULT 0,
    message         TEXT,
    warnings        BIGINT NOT NULL DEFAULT 0,
    rejected_count  BIGINT NOT NULL DEFAULT 0,
    rejected        TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
  );
  CREATE INDEX tasks_pending ON tasks(store_id, seq) WHERE status = 'pending';
  CREATE TABLE task_payloads (
    seq      BIGINT PRIMARY KEY REFERENCES tasks(seq) ON DELETE CASCADE,
    payload  TEXT NOT NULL
  );
  CREATE TABLE indexing_leases (
    store_id  TEXT PRIMARY KEY REFERENCES stores(id) ON DELETE CASCADE,
    holder    TEXT NOT NULL,
    until     BIGINT NOT NULL
  );
  -- Product enrichment's queue (one row per product: its next stage, queued in the transaction that commits a
  -- content change) and what the stages found for a product's latest version.
  CREATE TABLE enrichment_jobs (
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT COLLATE "C" NOT NULL,
    product_version  BIGINT NOT NULL,
    stage            TEXT NOT NULL CHECK (stage IN ('text', 'image')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_run_at      BIGINT NOT NULL,
    error            TEXT,
    claimed_at       BIGINT,
    PRIMARY KEY (store_id, product_id)
  );
  CREATE INDEX enrichment_jobs_due ON enrichment_jobs(next_run_at);
  CREATE TABLE product_enrichment (
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT COLLATE "C" NOT NULL,
    product_version  BIGINT NOT NULL,
    stage            TEXT NOT NULL,
    attributes       TEXT NOT NULL,
    colours          TEXT,
    content          TEXT NOT NULL,
    updated_at       BIGINT NOT NULL,
    search_synced    SMALLINT NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, product_id)
  );
  CREATE INDEX product_enrichment_unsynced ON product_enrichment(updated_at) WHERE search_synced = 0;
  `,
  `
  -- The analytics worker's state (modules/analytics/): its progress through the events, the reports' daily
  -- aggregates and distinct-visitor sketches, the attribution state of recent searches, orders counted, and what
  -- behaviour ranking learned (evidence per query and product, shoppers' affinities, once-a-day marks). Log sums
  -- of nothing are stored as -1e308 (analytics-state-repository.ts).
  CREATE TABLE analytics_progress (
    consumer  TEXT PRIMARY KEY,
    last_seq  BIGINT NOT NULL
  );
  CREATE TABLE report_daily (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day       TEXT COLLATE "C" NOT NULL,
    region    TEXT NOT NULL,
    language  TEXT NOT NULL,
    currency  TEXT NOT NULL,
    metric    TEXT NOT NULL,
    value     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (store_id, day, region, language, currency, metric)
  );
  CREATE TABLE report_queries (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day           TEXT COLLATE "C" NOT NULL,
    query         TEXT COLLATE "C" NOT NULL,
    region        TEXT NOT NULL,
    language      TEXT NOT NULL,
    currency      TEXT NOT NULL,
    searches      BIGINT NOT NULL DEFAULT 0,
    no_results    BIGINT NOT NULL DEFAULT 0,
    clicked       BIGINT NOT NULL DEFAULT 0,
    converted     BIGINT NOT NULL DEFAULT 0,
    position_sum  DOUBLE PRECISION NOT NULL DEFAULT 0,
    positions     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, day, query, region, language, currency)
  );
  CREATE TABLE report_products (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT COLLATE "C" NOT NULL,
    product_id  TEXT COLLATE "C" NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    clicks      BIGINT NOT NULL DEFAULT 0,
    carts       BIGINT NOT NULL DEFAULT 0,
    purchases   DOUBLE PRECISION NOT NULL DEFAULT 0,
    revenue     DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, day, product_id, region, language, currency)
  );
  CREATE TABLE report_query_clicks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT COLLATE "C" NOT NULL,
    query       TEXT COLLATE "C" NOT NULL,
    product_id  TEXT COLLATE "C" NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    clicks      BIGINT NOT NULL,
    PRIMARY KEY (store_id, day, query, product_id, region, language, currency)
  );
  CREATE TABLE report_sketches (
    store_id   TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day        TEXT COLLATE "C" NOT NULL,
    region     TEXT NOT NULL,
    language   TEXT NOT NULL,
    currency   TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('user', 'session')),
    registers  BYTEA NOT NULL,
    PRIMARY KEY (store_id, day, region, language, currency, kind)
  );
  CREATE TABLE report_orders (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    order_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, order_id)
  );
  -- Ids are taken from the sequence before a batch writes (its clicks name the searches it adds): BY DEFAULT.
  CREATE TABLE attribution_searches (
    id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id    TEXT NOT NULL,
    query         TEXT NOT NULL,
    at            BIGINT NOT NULL,
    day           TEXT NOT NULL,
    region        TEXT NOT NULL,
    language      TEXT NOT NULL,
    currency      TEXT NOT NULL,
    with_results  SMALLINT NOT NULL,
    clicked       SMALLINT NOT NULL DEFAULT 0,
    carted        SMALLINT NOT NULL DEFAULT 0,
    converted     SMALLINT NOT NULL DEFAULT 0
  );
  CREATE INDEX attribution_searches_session ON attribution_searches(store_id, session_id, at);
  CREATE INDEX attribution_searches_at ON attribution_searches(at);
  CREATE TABLE attribution_clicks (
    store_id    TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    search_id   BIGINT NOT NULL REFERENCES attribution_searches(id) ON DELETE CASCADE,
    PRIMARY KEY (store_id, session_id, product_id, search_id)
  );
  CREATE INDEX attribution_clicks_search ON attribution_clicks(search_id);
  CREATE TABLE attribution_sessions (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id  TEXT NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (store_id, session_id)
  );
  CREATE TABLE behaviour_seen (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT COLLATE "C" NOT NULL,
    actor       TEXT NOT NULL,
    kind        TEXT NOT NULL,
    query       TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, day, actor, kind, query, product_id)
  );
  CREATE TABLE behaviour_scores (
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query        TEXT COLLATE "C" NOT NULL,
    product_id   TEXT COLLATE "C" NOT NULL,
    evidence     DOUBLE PRECISION NOT NULL,
    clicks       DOUBLE PRECISION NOT NULL,
    conversions  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (store_id, query, product_id)
  );
  CREATE TABLE shopper_affinities (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    shopper   TEXT NOT NULL,
    facet     TEXT NOT NULL,
    value     TEXT NOT NULL,
    weight    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (store_id, shopper, facet, value)
  );
  `,
  `
  -- What an imported query led to under the store's previous search provider (JSON array of categories).
  ALTER TABLE query_stats ADD COLUMN led_to TEXT;
  `,
];
