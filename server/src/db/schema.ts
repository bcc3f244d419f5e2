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
];
