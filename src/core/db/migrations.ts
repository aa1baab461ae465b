/** Schema of desk.db, one entry per version (PRAGMA user_version). Never edit a shipped entry: append. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

   CREATE TABLE payee_pins (service_url TEXT PRIMARY KEY, pay_to TEXT NOT NULL, pinned_at TEXT NOT NULL);

   CREATE TABLE purchases (
     id TEXT PRIMARY KEY,
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     resource TEXT NOT NULL,
     report_count INTEGER NOT NULL,
     amount TEXT NOT NULL,
     network TEXT NOT NULL,
     asset TEXT NOT NULL,
     payer TEXT NOT NULL,
     pay_to TEXT NOT NULL,
     nonce TEXT NOT NULL,
     valid_before INTEGER NOT NULL,
     quote_json TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('signed', 'sent', 'completed', 'failed', 'in_doubt')),
     tx_hash TEXT,
     error TEXT,
     response_json TEXT,
     report_ids TEXT NOT NULL DEFAULT '[]',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX purchases_by_state ON purchases(state);
   CREATE INDEX purchases_by_created ON purchases(created_at);

   CREATE TABLE snapshots (
     id TEXT PRIMARY KEY,
     handle TEXT NOT NULL,
     created_at TEXT NOT NULL,
     model TEXT NOT NULL,
     post_count INTEGER,
     range_from TEXT,
     range_to TEXT,
     raw_json TEXT NOT NULL,
     purchase_id TEXT REFERENCES purchases(id),
     stored_at TEXT NOT NULL
   );
   CREATE INDEX snapshots_by_handle ON snapshots(handle, created_at);
   CREATE INDEX snapshots_by_stored ON snapshots(stored_at);

   CREATE VIRTUAL TABLE snapshot_text USING fts5(
     id UNINDEXED, handle UNINDEXED, body, tokenize = 'porter unicode61'
   );

   CREATE TABLE shelf_cache (service_url TEXT PRIMARY KEY, body_json TEXT NOT NULL, fetched_at TEXT NOT NULL);
   CREATE TABLE menu_cache (
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     body_json TEXT NOT NULL,
     fetched_at TEXT NOT NULL,
     PRIMARY KEY (service_url, handle)
   );

   CREATE TABLE dossier_drafts (
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     base_json TEXT NOT NULL,
     draft_json TEXT NOT NULL,
     saved_at TEXT NOT NULL,
     PRIMARY KEY (service_url, handle)
   );`,
  // 2: what an in-doubt purchase waits for (JSON of PurchaseWait) and when reconciliation last looked.
  `ALTER TABLE purchases ADD COLUMN waiting_json TEXT;
   ALTER TABLE purchases ADD COLUMN checked_at TEXT;`,
  // 3: full-text rows keyed by an integer kept on the snapshot (text_id), so replacing a snapshot's text
  // deletes by rowid; deleting by the UNINDEXED id column scanned the whole index on every put. The
  // snapshots' own rowid is not used as the key: VACUUM may renumber it.
  `ALTER TABLE snapshots ADD COLUMN text_id INTEGER;
   CREATE VIRTUAL TABLE snapshot_fts USING fts5(body, tokenize = 'porter unicode61');
   UPDATE snapshots SET text_id = rowid WHERE id IN (SELECT id FROM snapshot_text);
   INSERT INTO snapshot_fts (rowid, body)
     SELECT s.text_id, t.body FROM snapshot_text t JOIN snapshots s ON s.id = t.id;
   DROP TABLE snapshot_text;
   CREATE UNIQUE INDEX snapshots_by_text ON snapshots(text_id);`,
  // 4: the library is keyed by service and report id: two services may use the same id for different reports,
  // and one must never overwrite the other. Existing rows belong to the service of the purchase that stored
  // them; a row without one to the service configured at the time of migration (the default one if none).
  `CREATE TABLE snapshots_v4 (
     service_url TEXT NOT NULL,
     id TEXT NOT NULL,
     handle TEXT NOT NULL,
     created_at TEXT NOT NULL,
     model TEXT NOT NULL,
     post_count INTEGER,
     range_from TEXT,
     range_to TEXT,
     raw_json TEXT NOT NULL,
     purchase_id TEXT REFERENCES purchases(id),
     stored_at TEXT NOT NULL,
     text_id INTEGER,
     PRIMARY KEY (service_url, id)
   );
   INSERT INTO snapshots_v4 (service_url, id, handle, created_at, model, post_count, range_from, range_to,
       raw_json, purchase_id, stored_at, text_id)
     SELECT COALESCE(p.service_url,
              (SELECT NULLIF(rtrim(json_extract(value, '$'), '/'), '') FROM settings
                WHERE key = 'serviceUrl' AND json_valid(value)),
              'http://127.0.0.1:8402'),
            s.id, s.handle, s.created_at, s.model, s.post_count, s.range_from, s.range_to, s.raw_json,
            s.purchase_id, s.stored_at, s.text_id
     FROM snapshots s LEFT JOIN purchases p ON p.id = s.purchase_id;
   DROP TABLE snapshots;
   ALTER TABLE snapshots_v4 RENAME TO snapshots;
   CREATE INDEX snapshots_by_handle ON snapshots(service_url, handle, created_at);
   CREATE INDEX snapshots_by_stored ON snapshots(stored_at);
   CREATE INDEX snapshots_by_id ON snapshots(id);
   CREATE UNIQUE INDEX snapshots_by_text ON snapshots(text_id);`,
  // 5: how a purchase was settled gets its own column; reads with the library secret were marked by the word
  // 'library secret' in network and payer, which are now left empty for them (nothing was paid on a network).
  `ALTER TABLE purchases ADD COLUMN paid_with TEXT NOT NULL DEFAULT 'payment'
     CHECK (paid_with IN ('payment', 'library_secret'));
   UPDATE purchases SET paid_with = 'library_secret', network = '', payer = ''
     WHERE network = 'library secret' AND payer = 'library secret';`,
  // 6: a library that pages and searches at 100k reports. The snapshot's integer key is its rowid (an INTEGER
  // PRIMARY KEY keeps its value through VACUUM) and the full-text row's, so storing a report is one insert
  // instead of an insert, a select and an update. The full-text index is contentless (the text is not kept a
  // second time; snippets come from the stored report) and without the porter stemmer, so prefix and phrase
  // queries match what is written. Each report keeps what it cost (its share of the purchase) and the handle
  // as it was bought (`username`); handle_names keeps display names from the shelf for owned handles. One
  // index per sortable column, each ending in the rowid, serves keyset paging. A new report is indexed for
  // search just after its purchase commits (search_progress: every key up to indexed_up_to is indexed), so the
  // purchase's transaction no longer waits for tokenizing; a search first indexes whatever is still pending.
  `CREATE TABLE snapshots_v5 (
     text_id INTEGER PRIMARY KEY,
     service_url TEXT NOT NULL,
     id TEXT NOT NULL,
     handle TEXT NOT NULL,
     username TEXT NOT NULL,
     created_at TEXT NOT NULL,
     model TEXT NOT NULL,
     post_count INTEGER,
     range_from TEXT,
     range_to TEXT,
     raw_json TEXT NOT NULL,
     purchase_id TEXT REFERENCES purchases(id),
     stored_at TEXT NOT NULL,
     spent_atomic INTEGER NOT NULL DEFAULT 0
   );
   CREATE VIRTUAL TABLE snapshot_search USING fts5(
     body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
   );
   INSERT INTO snapshots_v5 (text_id, service_url, id, handle, username, created_at, model, post_count,
       range_from, range_to, raw_json, purchase_id, stored_at, spent_atomic)
     SELECT s.text_id, s.service_url, s.id, s.handle, COALESCE(p.handle, s.handle), s.created_at, s.model,
            s.post_count, s.range_from, s.range_to, s.raw_json, s.purchase_id, s.stored_at,
            COALESCE(CAST(p.amount AS INTEGER) / MAX(p.report_count, 1), 0)
     FROM snapshots s LEFT JOIN purchases p ON p.id = s.purchase_id
     ORDER BY s.text_id IS NULL, s.text_id;
   INSERT INTO snapshot_search (rowid, body)
     SELECT f.rowid, f.body FROM snapshot_fts f JOIN snapshots_v5 s ON s.text_id = f.rowid;
   -- Rows without text (none since version 3) were numbered after every row with text: they get indexed.
   CREATE TABLE search_progress (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     indexed_up_to INTEGER NOT NULL
   );
   INSERT INTO search_progress (id, indexed_up_to)
     SELECT 1, COALESCE(MAX(s.text_id), 0) FROM snapshots_v5 s JOIN snapshot_fts f ON f.rowid = s.text_id;
   DROP TABLE snapshot_fts;
   DROP TABLE snapshots;
   ALTER TABLE snapshots_v5 RENAME TO snapshots;
   CREATE UNIQUE INDEX snapshots_by_key ON snapshots(id, service_url);
   CREATE INDEX snapshots_by_handle ON snapshots(handle, created_at);
   CREATE INDEX snapshots_by_created ON snapshots(created_at);
   CREATE INDEX snapshots_by_stored ON snapshots(stored_at);
   CREATE INDEX snapshots_by_spent ON snapshots(spent_atomic);
   CREATE TABLE handle_names (
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     display_name TEXT NOT NULL,
     PRIMARY KEY (service_url, handle)
   );`,
  // 7: when a saved shelf was last confirmed by the service (a 304 to its ETag) is kept apart from the shelf:
  // setting it on shelf_cache rewrote the whole row, 22 MB at 100k handles, on every check.
  `CREATE TABLE shelf_checks (service_url TEXT PRIMARY KEY, checked_at TEXT NOT NULL);`,
  // 8: the library answers questions. Figures a query compares (mean sentiment, engagement) and a report's
  // topics are kept beside the snapshot in narrow tables: read from the snapshot row they would walk past its
  // JSON on every row. Tags and notes are a person's own and belong to the report (service and id), not to a
  // stored copy, so buying a report again keeps them. Saved searches are the Library's named queries.
  `CREATE TABLE snapshot_facts (
     text_id INTEGER PRIMARY KEY,
     sentiment REAL,
     likes INTEGER,
     reposts INTEGER,
     replies INTEGER
   );
   CREATE TABLE snapshot_topics (
     topic TEXT NOT NULL,
     text_id INTEGER NOT NULL,
     PRIMARY KEY (topic, text_id)
   ) WITHOUT ROWID;
   CREATE INDEX snapshot_topics_by_report ON snapshot_topics(text_id);
   CREATE TABLE report_tags (
     service_url TEXT NOT NULL,
     report_id TEXT NOT NULL,
     tag TEXT NOT NULL,
     added_at TEXT NOT NULL,
     PRIMARY KEY (service_url, report_id, tag)
   ) WITHOUT ROWID;
   CREATE INDEX report_tags_by_tag ON report_tags(tag);
   CREATE TABLE report_notes (
     service_url TEXT NOT NULL,
     report_id TEXT NOT NULL,
     note TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (service_url, report_id)
   );
   -- Qualifiers and comparisons are judged from this narrow index, newest first, before any report row (and
   -- its JSON) is read: a filter over 100k reports then reads megabytes, not the whole library.
   CREATE INDEX snapshots_by_filter ON snapshots(created_at, handle, model, post_count, spent_atomic, id,
     service_url);
   CREATE TABLE saved_searches (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL UNIQUE COLLATE NOCASE,
     query TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   INSERT INTO snapshot_facts (text_id, sentiment, likes, reposts, replies)
     SELECT v.text_id,
       CASE WHEN json_type(v.raw_json, '$.analytics.sentimentSeries') = 'array' THEN
         (SELECT AVG(CASE WHEN j.type = 'object' THEN
                       CASE WHEN json_type(j.value, '$.score') IN ('integer', 'real')
                         THEN json_extract(j.value, '$.score') END END)
          FROM json_each(v.raw_json, '$.analytics.sentimentSeries') j) END,
       CASE WHEN json_type(v.raw_json, '$.analytics.engagement.likes') IN ('integer', 'real')
         THEN json_extract(v.raw_json, '$.analytics.engagement.likes') END,
       CASE WHEN json_type(v.raw_json, '$.analytics.engagement.reposts') IN ('integer', 'real')
         THEN json_extract(v.raw_json, '$.analytics.engagement.reposts') END,
       CASE WHEN json_type(v.raw_json, '$.analytics.engagement.replies') IN ('integer', 'real')
         THEN json_extract(v.raw_json, '$.analytics.engagement.replies') END
     FROM (SELECT text_id, raw_json FROM snapshots WHERE json_valid(raw_json)) v;
   INSERT OR IGNORE INTO snapshot_topics (topic, text_id)
     SELECT lower(trim(json_extract(j.value, '$.label'))), v.text_id
     FROM (SELECT text_id, raw_json FROM snapshots
           WHERE json_valid(raw_json) AND json_type(raw_json, '$.analytics.topicShare') = 'array') v,
          json_each(v.raw_json, '$.analytics.topicShare') j
     WHERE j.type = 'object' AND json_type(j.value, '$.label') = 'text'
       AND trim(json_extract(j.value, '$.label')) <> '';`,
  // 9: a spending budget per handle, per calendar month (docs/decisions): beside the daily and per-purchase
  // caps, going over it asks for the same confirmation. The handle is matched without regard to case.
  `CREATE TABLE handle_budgets (
     handle TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
     monthly_units INTEGER NOT NULL CHECK (monthly_units >= 0),
     set_at TEXT NOT NULL
   );`,
  // 10: a purchase's transaction writes the report row and the keys it is found by (id, handle, purchase time,
  // price), nothing derived. Each index in an order other than storage order adds a page per report to the
  // commit: snapshots_by_filter and snapshots_by_created, both in date order, more than doubled it. The date
  // order and the columns filters judge now live in snapshot_filters, written by the indexing pass after the
  // commit like the words, facts and topics (every key up to indexed_up_to has its row), and tags and notes
  // find their reports through snapshots_by_key instead of an id carried in the date index.
  `DROP INDEX snapshots_by_filter;
   DROP INDEX snapshots_by_created;
   CREATE TABLE snapshot_filters (
     created_at TEXT NOT NULL,
     text_id INTEGER NOT NULL,
     handle TEXT NOT NULL,
     model TEXT NOT NULL,
     post_count INTEGER,
     spent_atomic INTEGER NOT NULL,
     PRIMARY KEY (created_at, text_id)
   ) WITHOUT ROWID;
   CREATE UNIQUE INDEX snapshot_filters_by_report ON snapshot_filters(text_id);
   INSERT INTO snapshot_filters (created_at, text_id, handle, model, post_count, spent_atomic)
     SELECT created_at, text_id, handle, model, post_count, spent_atomic FROM snapshots
     WHERE text_id <= (SELECT indexed_up_to FROM search_progress WHERE id = 1);`,
  // 11: a report stored as a large JSON document keeps the start of its searchable text for snippets, written
  // by the indexing pass: a search then reads that, not 32 MB of JSON for 180 characters, which stalled core
  // for about 90 ms per hit (issue 27). Other reports keep none and their JSON is read as before; a large one
  // indexed before this version is read as before too.
  `ALTER TABLE snapshot_filters ADD COLUMN snippet_text TEXT;`,
  // 12: the signed payment of a purchase sent to a service that offers x402's payment-identifier, sealed, kept
  // only until its validBefore, so a lost answer can be asked for again with the identical payment (decision
  // 0024). Existing purchases have none: nothing to carry over.
  `CREATE TABLE kept_payments (
     purchase_id TEXT NOT NULL PRIMARY KEY,
     payment_id TEXT NOT NULL,
     valid_before INTEGER NOT NULL,
     sealed TEXT NOT NULL
   );
   CREATE INDEX kept_payments_by_expiry ON kept_payments(valid_before);`,
  // 13: purchases an assistant asked for over MCP (docs/decisions/0027-mcp-server.md). A request only asks:
  // it holds the choice and the price the person was shown, and a purchase happens only when the person
  // approves it (MCP elicitation within the session's limit, or `intel-desk approve`), through the same
  // quote and purchase.start as any other. Kept in desk.db so a request made by one process (the MCP server)
  // can be approved by another (the CLI), and so one approval claims it for good: it never pays twice.
  `CREATE TABLE purchase_requests (
     id TEXT NOT NULL PRIMARY KEY,
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     selection_json TEXT NOT NULL,
     include_owned INTEGER NOT NULL CHECK (include_owned IN (0, 1)),
     report_count INTEGER NOT NULL,
     amount TEXT NOT NULL,
     pay_to TEXT NOT NULL,
     network TEXT NOT NULL,
     reason TEXT,
     state TEXT NOT NULL
       CHECK (state IN ('pending', 'approving', 'approved', 'declined', 'failed', 'expired')),
     purchase_id TEXT,
     error TEXT,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     decided_at TEXT
   );
   CREATE INDEX purchase_requests_by_state ON purchase_requests(state, created_at);`,
  // 14: upgrades that rewrite data run in the background (src/core/db/deferred-fills.ts). On a library
  // that held reports, migrations 8 and 10 made their tables but left them empty; the indexing pass fills
  // the facts, topics and date order of every key up to pending_up_to, newest first, and lowers it as it
  // goes. A library whose every indexed report has its date-order row has nothing to fill.
  `CREATE TABLE upgrade_fill (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     pending_up_to INTEGER NOT NULL
   );
   INSERT INTO upgrade_fill (id, pending_up_to)
     SELECT 1, CASE WHEN EXISTS (
         SELECT 1 FROM snapshots s WHERE s.text_id <= p.indexed_up_to
           AND NOT EXISTS (SELECT 1 FROM snapshot_filters f WHERE f.text_id = s.text_id))
       THEN p.indexed_up_to ELSE 0 END
     FROM search_progress p WHERE p.id = 1;`,
  // 15: the handles a service's reports are of, from an index alone. Naming them after each shelf fetch read
  // every report row to find them (190 ms at 100k reports, at every start, with core busy meanwhile).
  `CREATE INDEX snapshots_by_service ON snapshots(service_url, handle);`,
  // 16: one reservation per payment, taken in the write transaction that checked the guard and the caps,
  // before anything is signed, whichever process signs (ledger/reservations.ts, decision 0042). In-memory
  // sets guarded only their own process: two CLI runs on one folder both paid for the same reports.
  `CREATE TABLE reservations (
     purchase_id TEXT NOT NULL PRIMARY KEY,
     service_url TEXT NOT NULL,
     handle TEXT NOT NULL,
     selection_json TEXT NOT NULL,
     amount TEXT NOT NULL,
     holder_json TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     created_at TEXT NOT NULL
   );`,
  // 17: a purchase request keeps every term the person is shown (decision 0039): the token, the unit price
  // and the report ids, so an approval pays those or nothing; and who holds a claim (process id, start stamp,
  // when), so a claim left by a process that died is freed or settled by the next reader. Requests recorded
  // before have none of these: an approval refuses them (ask again).
  `ALTER TABLE purchase_requests ADD COLUMN asset TEXT;
   ALTER TABLE purchase_requests ADD COLUMN unit_price TEXT;
   ALTER TABLE purchase_requests ADD COLUMN report_ids_json TEXT;
   ALTER TABLE purchase_requests ADD COLUMN claim_pid INTEGER;
   ALTER TABLE purchase_requests ADD COLUMN claim_stamp TEXT;
   ALTER TABLE purchase_requests ADD COLUMN claimed_at TEXT;`,
  // 18: the team library (decision 0043). Which team this desk joined (the password is sealed apart); what
  // the team has been told of each purchase this desk reserved there; and who bought each report pulled from
  // the team, whose bytes live in snapshots like the desk's own so search and export read them alike.
  `CREATE TABLE team_membership (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     url TEXT NOT NULL,
     team_name TEXT NOT NULL,
     desk_id TEXT NOT NULL,
     analyst TEXT NOT NULL,
     joined_at TEXT NOT NULL,
     pulled_up_to INTEGER NOT NULL DEFAULT 0,
     synced_at TEXT,
     status_json TEXT
   );
   CREATE TABLE team_purchases (
     purchase_id TEXT PRIMARY KEY,
     told TEXT NOT NULL CHECK (told IN ('reserved', 'in_doubt', 'paid', 'published', 'failed')),
     updated_at TEXT NOT NULL
   );
   CREATE TABLE team_reports (
     service_url TEXT NOT NULL,
     id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     purchase_id TEXT NOT NULL,
     analyst TEXT NOT NULL,
     desk_id TEXT NOT NULL,
     payer TEXT NOT NULL,
     tx_hash TEXT,
     sha256 TEXT NOT NULL,
     PRIMARY KEY (service_url, id)
   );`,
  // 19: which process reserved each team purchase (a reservation's holder), so a team sync in another process
  // on this folder leaves a purchase still between the team's reservation and its ledger row to that process
  // instead of freeing reports it is about to pay for (team/team-told.ts).
  `ALTER TABLE team_purchases ADD COLUMN holder_json TEXT;`,
];
