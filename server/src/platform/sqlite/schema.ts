/*
 * The service's durable state. Append new migrations; never edit an applied one.
 * Every row is scoped by store id (multi-tenant from the first table).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE stores (
    id          TEXT PRIMARY KEY,
    created_at  INTEGER NOT NULL,
    settings    TEXT NOT NULL DEFAULT '{}'
  );

  -- Only a SHA-256 of each key is stored. A rotated key keeps working until expires_at (grace period).
  CREATE TABLE api_keys (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('admin', 'search', 'analytics')),
    key_hash    BLOB NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER
  );
  CREATE INDEX api_keys_store ON api_keys(store_id);

  -- The catalog: source of truth for products. Deleted products stay as tombstones so versions keep increasing.
  CREATE TABLE products (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id            TEXT NOT NULL,
    version       INTEGER NOT NULL,
    content_hash  TEXT,
    doc           TEXT,
    deleted       INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL,
    PRIMARY KEY (store_id, id)
  ) WITHOUT ROWID;

  -- Indexing tasks. seq orders them; cursor is how many payload items were applied (bulk tasks apply in chunks).
  CREATE TABLE tasks (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('upsert', 'delete')),
    status       TEXT NOT NULL CHECK (status IN ('pending', 'complete', 'error')),
    payload      TEXT NOT NULL,
    item_count   INTEGER NOT NULL,
    cursor       INTEGER NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_run_at  INTEGER NOT NULL DEFAULT 0,
    message      TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
  );
  CREATE INDEX tasks_pending ON tasks(seq) WHERE status = 'pending';

  CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    type         TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    user_id      TEXT,
    session_id   TEXT,
    api_version  TEXT NOT NULL,
    data         TEXT NOT NULL
  );
  CREATE INDEX events_store_time ON events(store_id, received_at, seq);
  `,
  `
  -- Every search, for reports and for suggestions.
  CREATE TABLE search_log (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    at            INTEGER NOT NULL,
    query         TEXT,
    collection    TEXT,
    result_count  INTEGER NOT NULL,
    fallback      INTEGER NOT NULL,
    user_id       TEXT,
    session_id    TEXT,
    preprod       INTEGER NOT NULL
  );
  CREATE INDEX search_log_store_time ON search_log(store_id, at);

  -- Past queries by normalized text: how often searched and how many results they last had (suggestions).
  CREATE TABLE query_stats (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query         TEXT NOT NULL,
    searches      INTEGER NOT NULL,
    result_count  INTEGER NOT NULL,
    last_at       INTEGER NOT NULL,
    PRIMARY KEY (store_id, query)
  ) WITHOUT ROWID;

  -- Ranking signals derived from events (sortBy=purchase).
  CREATE TABLE product_signals (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    purchases   REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, product_id)
  ) WITHOUT ROWID;

  -- Orders already counted, so OrderComplete and Purchase of one order count once.
  CREATE TABLE counted_orders (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    order_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, order_id)
  ) WITHOUT ROWID;
  `,
  `
  -- Products as a rowid table: rows hold whole product JSON, and WITHOUT ROWID tables are slow with large rows
  -- (measured: 18 us against 6 us per lookup, and search reads 30 per page).
  CREATE TABLE products_v2 (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id            TEXT NOT NULL,
    version       INTEGER NOT NULL,
    content_hash  TEXT,
    doc           TEXT,
    deleted       INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL,
    UNIQUE (store_id, id)
  );
  INSERT INTO products_v2 (store_id, id, version, content_hash, doc, deleted, updated_at)
    SELECT store_id, id, version, content_hash, doc, deleted, updated_at FROM products;
  DROP TABLE products;
  ALTER TABLE products_v2 RENAME TO products;
  `,
  `
  -- What a bulk POST /products dropped or refused, acknowledged with the task: warnings counts dropped null
  -- optionals and blank strings; rejected is the JSON list of the first rejected products (index, id, problems).
  ALTER TABLE tasks ADD COLUMN warnings INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tasks ADD COLUMN rejected_count INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tasks ADD COLUMN rejected TEXT NOT NULL DEFAULT '[]';
  `,
  `
  -- Keys are found by their hash, so a wrong key and an unknown store cost the same lookup (no store-id probing).
  CREATE INDEX api_keys_hash ON api_keys(key_hash);
  `,
  `
  -- Task payloads in their own table. In the tasks row, every progress update rewrote a bulk task's whole payload
  -- (19 MB for 10,000 products, once per batch: 54 ms), and reading any column stored after it (cursor, status
  -- reports) walked its overflow pages (11 ms per task poll).
  CREATE TABLE task_payloads (
    seq      INTEGER PRIMARY KEY REFERENCES tasks(seq) ON DELETE CASCADE,
    payload  TEXT NOT NULL
  );
  INSERT INTO task_payloads (seq, payload) SELECT seq, payload FROM tasks WHERE status = 'pending';
  ALTER TABLE tasks DROP COLUMN payload;
  `,
  `
  -- A past query becomes a public suggestion only once several distinct shoppers searched it. query_shoppers
  -- holds hashed shopper ids per query only until the query has enough of them. Rows from before this rule
  -- count each search as one shopper.
  ALTER TABLE query_stats ADD COLUMN shoppers INTEGER NOT NULL DEFAULT 0;
  UPDATE query_stats SET shoppers = searches;
  CREATE TABLE query_shoppers (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query     TEXT NOT NULL,
    shopper   INTEGER NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (store_id, query, shopper)
  ) WITHOUT ROWID;
  `,
  `
  -- Each product's Search product JSON, shaped once (at indexing, or on first view after the shaping settings
  -- changed) so a results page sends stored fragments. Its own table: reading it never walks a product's
  -- overflow pages. "shaping" names the settings and code version it was shaped with; a row with another one
  -- is shaped again when next read.
  CREATE TABLE search_products (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id        TEXT NOT NULL,
    shaping   TEXT NOT NULL,
    json      TEXT NOT NULL,
    UNIQUE (store_id, id)
  );
  `,
  `
  -- Complete the look, learned: evidence that two products go together (orders with both, look clicks), one
  -- row per direction so a product's partners are one range read.
  CREATE TABLE look_pairs (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    other_id    TEXT NOT NULL,
    evidence    REAL NOT NULL,
    PRIMARY KEY (store_id, product_id, other_id)
  ) WITHOUT ROWID;
  -- Look clicks already counted: one per shopper session and pair, so one client cannot move a look.
  CREATE TABLE look_clicks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id  TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    other_id    TEXT NOT NULL,
    PRIMARY KEY (store_id, session_id, product_id, other_id)
  ) WITHOUT ROWID;
  -- Looks a store curated for a product: shown before the composed ones.
  CREATE TABLE pinned_looks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL,
    looks       TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (store_id, product_id)
  ) WITHOUT ROWID;
  `,
  `
  -- Reports: aggregates per store and UTC day, with the shopper's region, language and currency ('' when unknown)
  -- as dimensions, built by the analytics worker from the events table (analytics_progress holds how far).
  CREATE TABLE analytics_progress (
    consumer  TEXT PRIMARY KEY,
    last_seq  INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- Counters by name (searches, clickedSearches, revenue, position:3, ...).
  CREATE TABLE report_daily (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day       TEXT NOT NULL,
    region    TEXT NOT NULL,
    language  TEXT NOT NULL,
    currency  TEXT NOT NULL,
    metric    TEXT NOT NULL,
    value     REAL NOT NULL,
    PRIMARY KEY (store_id, day, region, language, currency, metric)
  ) WITHOUT ROWID;
  CREATE TABLE report_queries (
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day           TEXT NOT NULL,
    query         TEXT NOT NULL,
    region        TEXT NOT NULL,
    language      TEXT NOT NULL,
    currency      TEXT NOT NULL,
    searches      INTEGER NOT NULL DEFAULT 0,
    no_results    INTEGER NOT NULL DEFAULT 0,
    clicked       INTEGER NOT NULL DEFAULT 0,
    converted     INTEGER NOT NULL DEFAULT 0,
    position_sum  REAL NOT NULL DEFAULT 0,
    positions     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, day, query, region, language, currency)
  ) WITHOUT ROWID;
  CREATE TABLE report_products (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    clicks      INTEGER NOT NULL DEFAULT 0,
    carts       INTEGER NOT NULL DEFAULT 0,
    purchases   REAL NOT NULL DEFAULT 0,
    revenue     REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, day, product_id, region, language, currency)
  ) WITHOUT ROWID;
  -- Clicks per query and product: which of the store's clicked products our shadow answers hold (preprod).
  CREATE TABLE report_query_clicks (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    query       TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    clicks      INTEGER NOT NULL,
    PRIMARY KEY (store_id, day, query, product_id, region, language, currency)
  ) WITHOUT ROWID;
  -- Distinct users and sessions per day: a range's distinct count cannot be summed from daily counts.
  CREATE TABLE report_visitors (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day       TEXT NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('user', 'session')),
    visitor   TEXT NOT NULL,
    region    TEXT NOT NULL,
    language  TEXT NOT NULL,
    currency  TEXT NOT NULL,
    PRIMARY KEY (store_id, day, kind, visitor, region, language, currency)
  ) WITHOUT ROWID;
  -- Orders already in the reports (OrderComplete and Purchase of one order, and repeats, count once).
  CREATE TABLE report_orders (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    order_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, order_id)
  ) WITHOUT ROWID;
  -- Recent searches per session, until their clicks and conversions can no longer arrive.
  CREATE TABLE attribution_searches (
    id            INTEGER PRIMARY KEY,
    store_id      TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id    TEXT NOT NULL,
    query         TEXT NOT NULL,
    at            INTEGER NOT NULL,
    day           TEXT NOT NULL,
    region        TEXT NOT NULL,
    language      TEXT NOT NULL,
    currency      TEXT NOT NULL,
    with_results  INTEGER NOT NULL,
    clicked       INTEGER NOT NULL DEFAULT 0,
    carted        INTEGER NOT NULL DEFAULT 0,
    converted     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX attribution_searches_session ON attribution_searches(store_id, session_id, query, at);
  CREATE INDEX attribution_searches_at ON attribution_searches(at);
  -- Products clicked from those searches: a later purchase of one converts the search.
  CREATE TABLE attribution_clicks (
    store_id    TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    search_id   INTEGER NOT NULL REFERENCES attribution_searches(id) ON DELETE CASCADE,
    PRIMARY KEY (store_id, session_id, product_id, search_id)
  ) WITHOUT ROWID;
  CREATE INDEX attribution_clicks_search ON attribution_clicks(search_id);
  -- Each session's last known region, language and currency: orders carry none of their own.
  CREATE TABLE attribution_sessions (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    session_id  TEXT NOT NULL,
    region      TEXT NOT NULL,
    language    TEXT NOT NULL,
    currency    TEXT NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (store_id, session_id)
  ) WITHOUT ROWID;
  -- The latest first page per query: the store's own search (from its Search events) and ours (from
  -- preprod=true searches), for the preprod report.
  CREATE TABLE query_answers (
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    source       TEXT NOT NULL CHECK (source IN ('theirs', 'ours')),
    query        TEXT NOT NULL,
    total        INTEGER NOT NULL,
    product_ids  TEXT NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (store_id, source, query)
  ) WITHOUT ROWID;
  `,
  `
  -- Ranking from behaviour and personalisation. Values are log2 of a decayed sum, taken at time 0 (see
  -- modules/analytics/decay.ts): adding an event is one log-add and nothing has to be rewritten as time passes.
  -- behaviour_seen: what one shopper (user id, else session id) already counted today per product, so repeats
  -- count once per day.
  CREATE TABLE behaviour_seen (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    actor       TEXT NOT NULL,
    kind        TEXT NOT NULL,
    query       TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, day, actor, kind, query, product_id)
  ) WITHOUT ROWID;
  -- Evidence per query and product ('' query: per product), and its decayed click and conversion counts.
  CREATE TABLE behaviour_scores (
    store_id     TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    query        TEXT NOT NULL,
    product_id   TEXT NOT NULL,
    evidence     REAL NOT NULL,
    clicks       REAL NOT NULL,
    conversions  REAL NOT NULL,
    PRIMARY KEY (store_id, query, product_id)
  ) WITHOUT ROWID;
  -- Erasing a user (DELETE /users/{userId}) finds their events without reading every event.
  CREATE INDEX events_user ON events(store_id, user_id) WHERE user_id IS NOT NULL;
  CREATE INDEX search_log_user ON search_log(store_id, user_id) WHERE user_id IS NOT NULL;
  -- A shopper's (u:<userId> or s:<sessionId>) affinity to facet values (brand, category, colour, price band).
  CREATE TABLE shopper_affinities (
    store_id  TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    shopper   TEXT NOT NULL,
    facet     TEXT NOT NULL,
    value     TEXT NOT NULL,
    weight    REAL NOT NULL,
    PRIMARY KEY (store_id, shopper, facet, value)
  ) WITHOUT ROWID;
  `,
  `
  -- Distinct users and sessions as HyperLogLog sketches per day and dimensions (modules/analytics/hyperloglog.ts):
  -- a range's distinct count from merged sketches instead of a scan of every visitor id.
  DROP TABLE report_visitors;
  -- sortBy=purchase counts like behaviour ranking: one shopper (user id, else session id) buys a product once a day.
  CREATE TABLE purchase_buyers (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    actor       TEXT NOT NULL,
    product_id  TEXT NOT NULL,
    PRIMARY KEY (store_id, day, actor, product_id)
  ) WITHOUT ROWID;
  CREATE TABLE report_sketches (
    store_id   TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    region     TEXT NOT NULL,
    language   TEXT NOT NULL,
    currency   TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('user', 'session')),
    registers  BLOB NOT NULL,
    PRIMARY KEY (store_id, day, region, language, currency, kind)
  ) WITHOUT ROWID;
  `,
  `
  -- Webhook subscriptions (modules/webhooks/). The secret is kept as it is (calls are signed with it) and is only
  -- ever shown in the answers that create or rotate it. A deleted subscription stays as a tombstone.
  CREATE TABLE webhook_subscriptions (
    id          TEXT PRIMARY KEY,
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    topic       TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    deleted     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX webhook_subscriptions_store ON webhook_subscriptions(store_id, topic) WHERE deleted = 0;
  -- The outbox: one row per call to make, written in the transaction of what it reports. next_attempt_at is set
  -- while it waits (pending, failed), NULL while an attempt is in flight (in_flight: its number) and once it is
  -- done (succeeded, dead). round_attempts counts the attempts since it was queued or redelivered (the retry
  -- schedule's position); attempts holds every attempt's { at, status, durationMs, error }.
  CREATE TABLE webhook_deliveries (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT NOT NULL UNIQUE,
    subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT NOT NULL,
    product_version  INTEGER NOT NULL,
    stage            TEXT NOT NULL,
    body             TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dead')),
    attempts         TEXT NOT NULL DEFAULT '[]',
    round_attempts   INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER,
    in_flight        INTEGER,
    in_flight_at     INTEGER,
    created_at       INTEGER NOT NULL,
    finished_at      INTEGER
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(subscription_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
  CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries(in_flight) WHERE in_flight IS NOT NULL;
  CREATE INDEX webhook_deliveries_listed ON webhook_deliveries(subscription_id, seq);
  CREATE INDEX webhook_deliveries_product ON webhook_deliveries(subscription_id, product_id, seq);
  CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(finished_at) WHERE finished_at IS NOT NULL;
  `,
  `
  -- Product enrichment: what each product's next stage is (one row per product, written in the transaction that
  -- commits a content change; a product whose content did not change is not queued again), and what the stages
  -- found for its latest version.
  CREATE TABLE enrichment_jobs (
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT NOT NULL,
    product_version  INTEGER NOT NULL,
    stage            TEXT NOT NULL CHECK (stage IN ('text', 'image')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_run_at      INTEGER NOT NULL,
    error            TEXT,
    PRIMARY KEY (store_id, product_id)
  ) WITHOUT ROWID;
  CREATE INDEX enrichment_jobs_due ON enrichment_jobs(next_run_at);
  CREATE TABLE product_enrichment (
    store_id         TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    product_id       TEXT NOT NULL,
    product_version  INTEGER NOT NULL,
    stage            TEXT NOT NULL,
    attributes       TEXT NOT NULL,
    colours          TEXT,
    content          TEXT NOT NULL,
    updated_at       INTEGER NOT NULL,
    PRIMARY KEY (store_id, product_id)
  ) WITHOUT ROWID;
  `,
  `
  -- Whether search holds a product's latest enrichment (its engine document's words and colour facet values):
  -- a finished stage replaces the row, which sets it back to 0, and the search sync sets it once applied, so a
  -- crash between the two is caught up after the restart.
  ALTER TABLE product_enrichment ADD COLUMN search_synced INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX product_enrichment_unsynced ON product_enrichment(updated_at) WHERE search_synced = 0;
  `,
  `
  -- A store's synonym sets (issue 20): input NULL for a multi-way set, the phrase typed for a one-way one;
  -- synonyms is a JSON array of words or phrases.
  CREATE TABLE synonyms (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    input       TEXT,
    synonyms    TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (store_id, id)
  ) WITHOUT ROWID;
  `,
  `
  -- Query rules (merchandising): a store's rule as its JSON (modules/rules/rule-schema.ts), read whole per store.
  CREATE TABLE query_rules (
    store_id    TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    rule        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (store_id, id)
  ) WITHOUT ROWID;
  `,
  `
  -- An enrichment job claimed by a worker: when (claimed_at), while next_run_at is pushed past the claim's end, so
  -- a job whose worker died is due again then; the one process of the embedded database releases claims at start.
  ALTER TABLE enrichment_jobs ADD COLUMN claimed_at INTEGER;
  `,
  `
  -- How many times a store's shaped Search products changed, counted by the database itself for every writer
  -- (the service, the CLI, a cascade from deleting the store): a copy kept in memory is good while the count
  -- stays (modules/catalog/shape-cache.ts). Not tied to stores, so a store created again counts on. Inserts are
  -- not counted: a shape kept for an id with no row had its row deleted since, which counted.
  CREATE TABLE shape_epochs (
    store_id  TEXT PRIMARY KEY,
    epoch     INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TRIGGER search_products_updated AFTER UPDATE ON search_products BEGIN
    INSERT INTO shape_epochs (store_id, epoch) VALUES (NEW.store_id, 1) ON CONFLICT (store_id) DO UPDATE SET epoch = epoch + 1;
  END;
  CREATE TRIGGER search_products_deleted AFTER DELETE ON search_products BEGIN
    INSERT INTO shape_epochs (store_id, epoch) VALUES (OLD.store_id, 1) ON CONFLICT (store_id) DO UPDATE SET epoch = epoch + 1;
  END;
  `,
  `
  -- Each product's Search product JSON in the product's own row (shaping names the settings and code version it
  -- was shaped with, as in search_products before): indexing wrote two rows per product, each with its own unique
  -- index, and the second row cost the main thread ~8 µs per product of a bulk. Search reads the shape by the same
  -- (store_id, id) index; a row of a product and its shape (3-4 KB) still fits a page. The shapes epoch counts a
  -- shape replaced or removed, not a shape added, as before.
  ALTER TABLE products ADD COLUMN shaping TEXT;
  ALTER TABLE products ADD COLUMN shaped TEXT;
  UPDATE products SET shaping = s.shaping, shaped = s.json
    FROM search_products AS s WHERE s.store_id = products.store_id AND s.id = products.id AND products.deleted = 0;
  DROP TABLE search_products;
  CREATE TRIGGER products_shape_changed AFTER UPDATE OF shaped ON products WHEN OLD.shaped IS NOT NULL BEGIN
    INSERT INTO shape_epochs (store_id, epoch) VALUES (NEW.store_id, 1) ON CONFLICT (store_id) DO UPDATE SET epoch = epoch + 1;
  END;
  CREATE TRIGGER products_shape_deleted AFTER DELETE ON products WHEN OLD.shaped IS NOT NULL BEGIN
    INSERT INTO shape_epochs (store_id, epoch) VALUES (OLD.store_id, 1) ON CONFLICT (store_id) DO UPDATE SET epoch = epoch + 1;
  END;
  `,
  `
  -- What an imported query led to under the store's previous search provider (the categories its searches found),
  -- as a JSON array: evidence of what the query means (modules/meaning).
  ALTER TABLE query_stats ADD COLUMN led_to TEXT;
  `,
];
