/**
 * The team database's schema, versioned like desk.db's: each entry moves version N-1 to N, run only by
 * `team create` under an advisory lock. Members never write a table: the team's rules are the SQL functions
 * below, which they may only EXECUTE, and row-level security shows each member its own team's rows alone.
 *
 * A member belongs to a team by holding the team's group role (GRANT intel_desk_team_x TO alice), so adding
 * and removing people is Postgres's own GRANT and REVOKE. Functions run as the schema's owner and find the
 * caller's team from session_user; each locks the team's row first, so reservations and publications of one
 * team happen one after another (and report sequence numbers are handed out in commit order).
 */

export const TEAM_SCHEMA_VERSION = 1;

/** Every member's group roles are members of this one: it holds USAGE, SELECT and EXECUTE. */
export const MEMBER_ROLE = 'intel_desk_member';

const FUNCTION_OPTIONS =
  'LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, intel_desk, pg_temp';

const VERSION_1 = `
CREATE SCHEMA intel_desk;
REVOKE ALL ON SCHEMA intel_desk FROM PUBLIC;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${MEMBER_ROLE}') THEN
    CREATE ROLE ${MEMBER_ROLE} NOLOGIN;
  END IF;
END $$;
GRANT USAGE ON SCHEMA intel_desk TO ${MEMBER_ROLE};

CREATE TABLE intel_desk.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE intel_desk.teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 80),
  group_role name NOT NULL UNIQUE,
  daily_cap numeric(78, 0) CHECK (daily_cap >= 0),
  per_purchase_cap numeric(78, 0) CHECK (per_purchase_cap >= 0),
  time_zone text NOT NULL DEFAULT 'UTC',
  over_cap text NOT NULL DEFAULT 'refuse' CHECK (over_cap IN ('refuse', 'consent')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per payment a desk of the team may sign: reserved before signing, then paid, failed or in doubt.
CREATE TABLE intel_desk.purchases (
  purchase_id uuid PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES intel_desk.teams (id),
  service_url text NOT NULL,
  handle text NOT NULL,
  report_count integer NOT NULL CHECK (report_count > 0),
  amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
  network text NOT NULL,
  asset text NOT NULL,
  payer text NOT NULL,
  nonce text NOT NULL,
  valid_before timestamptz NOT NULL,
  desk_id text NOT NULL,
  analyst text NOT NULL,
  member_role name NOT NULL,
  state text NOT NULL CHECK (state IN ('reserved', 'paid', 'failed', 'in_doubt')),
  day date NOT NULL,
  tx_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (payer, nonce)
);
CREATE INDEX purchases_team_day ON intel_desk.purchases (team_id, day);
CREATE INDEX purchases_open ON intel_desk.purchases (team_id) WHERE state IN ('reserved', 'in_doubt');

-- A report is claimed by one live purchase of the team: the unique key is what "paid once" rests on.
CREATE TABLE intel_desk.claims (
  team_id uuid NOT NULL,
  service_url text NOT NULL,
  report_id text NOT NULL,
  purchase_id uuid NOT NULL REFERENCES intel_desk.purchases (purchase_id),
  PRIMARY KEY (team_id, service_url, report_id)
);
CREATE INDEX claims_purchase ON intel_desk.claims (purchase_id);

-- Reports as the service sent them, numbered in the order they were published.
CREATE TABLE intel_desk.reports (
  seq bigserial PRIMARY KEY,
  team_id uuid NOT NULL,
  service_url text NOT NULL,
  handle text NOT NULL,
  report_id text NOT NULL,
  raw text NOT NULL,
  sha256 text NOT NULL,
  purchase_id uuid NOT NULL REFERENCES intel_desk.purchases (purchase_id),
  published_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, service_url, report_id)
);
CREATE INDEX reports_team_seq ON intel_desk.reports (team_id, seq);

-- The caller's team; a role in no team (or in two) is refused by name.
CREATE FUNCTION intel_desk.my_team() RETURNS uuid ${FUNCTION_OPTIONS} STABLE AS $$
DECLARE found uuid[];
BEGIN
  SELECT array_agg(id) INTO found FROM teams WHERE pg_has_role(session_user, group_role, 'MEMBER');
  IF found IS NULL THEN
    RAISE EXCEPTION 'role % is in no Intel Desk team', session_user USING ERRCODE = 'ID001';
  END IF;
  IF array_length(found, 1) > 1 THEN
    RAISE EXCEPTION 'role % is in several Intel Desk teams', session_user USING ERRCODE = 'ID002';
  END IF;
  RETURN found[1];
END $$;

-- The team's row, locked: every rule below runs one reservation at a time per team.
CREATE FUNCTION intel_desk.lock_my_team() RETURNS intel_desk.teams ${FUNCTION_OPTIONS} AS $$
DECLARE t teams;
BEGIN
  SELECT * INTO t FROM teams WHERE id = my_team() FOR UPDATE;
  RETURN t;
END $$;

CREATE FUNCTION intel_desk.team_today(t intel_desk.teams) RETURNS date ${FUNCTION_OPTIONS} STABLE AS $$
BEGIN
  RETURN (now() AT TIME ZONE t.time_zone)::date;
END $$;

-- Committed and reserved money of the team's day: in-doubt counts in full until the chain decides.
CREATE FUNCTION intel_desk.spent_on(t intel_desk.teams, d date) RETURNS numeric ${FUNCTION_OPTIONS} STABLE AS $$
BEGIN
  RETURN COALESCE((SELECT sum(amount) FROM purchases
    WHERE team_id = t.id AND day = d AND state IN ('reserved', 'paid', 'in_doubt')), 0);
END $$;

CREATE FUNCTION intel_desk.reserve_purchase(
  p_purchase_id uuid, p_service_url text, p_handle text, p_report_ids text[], p_amount numeric,
  p_network text, p_asset text, p_payer text, p_nonce text, p_valid_before timestamptz, p_desk_id text,
  p_analyst text, p_accept_over_cap boolean, p_dry_run boolean
) RETURNS jsonb ${FUNCTION_OPTIONS} AS $$
DECLARE
  t teams;
  holder purchases;
  held_count integer;
  today date;
  spent numeric;
BEGIN
  IF p_amount IS NULL OR p_amount < 0 OR coalesce(array_length(p_report_ids, 1), 0) = 0
     OR array_length(p_report_ids, 1) > 100000 OR length(p_service_url) > 2048 THEN
    RAISE EXCEPTION 'reserve_purchase: malformed request' USING ERRCODE = 'ID003';
  END IF;
  IF p_dry_run THEN
    SELECT * INTO t FROM teams WHERE id = my_team();
  ELSE
    t := lock_my_team();
  END IF;
  SELECT p.* INTO holder FROM claims c JOIN purchases p ON p.purchase_id = c.purchase_id
    WHERE c.team_id = t.id AND c.service_url = p_service_url AND c.report_id = ANY (p_report_ids)
    ORDER BY p.state = 'paid' DESC, p.created_at LIMIT 1;
  IF FOUND THEN
    SELECT count(*) INTO held_count FROM claims
      WHERE team_id = t.id AND service_url = p_service_url AND report_id = ANY (p_report_ids);
    RETURN jsonb_build_object(
      'refused', CASE WHEN holder.state = 'paid' THEN 'team_owned' ELSE 'team_in_progress' END,
      'count', held_count, 'analyst', holder.analyst, 'deskId', holder.desk_id,
      'purchaseId', holder.purchase_id, 'state', holder.state);
  END IF;
  IF t.per_purchase_cap IS NOT NULL AND p_amount > t.per_purchase_cap
     AND NOT (t.over_cap = 'consent' AND p_accept_over_cap) THEN
    RETURN jsonb_build_object('refused', 'over_team_purchase_cap', 'cap', t.per_purchase_cap::text,
      'overCap', t.over_cap);
  END IF;
  today := team_today(t);
  spent := spent_on(t, today);
  IF t.daily_cap IS NOT NULL AND spent + p_amount > t.daily_cap
     AND NOT (t.over_cap = 'consent' AND p_accept_over_cap) THEN
    RETURN jsonb_build_object('refused', 'over_team_daily_cap', 'cap', t.daily_cap::text,
      'spent', spent::text, 'overCap', t.over_cap, 'timeZone', t.time_zone);
  END IF;
  IF NOT p_dry_run THEN
    INSERT INTO purchases (purchase_id, team_id, service_url, handle, report_count, amount, network, asset,
      payer, nonce, valid_before, desk_id, analyst, member_role, state, day)
    VALUES (p_purchase_id, t.id, p_service_url, p_handle, array_length(p_report_ids, 1), p_amount,
      p_network, lower(p_asset), lower(p_payer), lower(p_nonce), p_valid_before, p_desk_id, p_analyst, session_user, 'reserved', today);
    INSERT INTO claims (team_id, service_url, report_id, purchase_id)
      SELECT DISTINCT t.id, p_service_url, id, p_purchase_id FROM unnest(p_report_ids) AS id;
  END IF;
  RETURN jsonb_build_object('spent', (spent + p_amount)::text, 'dailyCap', t.daily_cap::text,
    'perPurchaseCap', t.per_purchase_cap::text);
END $$;

-- Ends a purchase. Its own member may end it at any time; another member only once its authorization has
-- expired (valid_before plus a minute for clocks), after reading on chain whether its nonce was used.
CREATE FUNCTION intel_desk.finish_purchase(p_purchase_id uuid, p_outcome text, p_tx_hash text)
RETURNS text ${FUNCTION_OPTIONS} AS $$
DECLARE
  t teams;
  target purchases;
BEGIN
  IF p_outcome NOT IN ('paid', 'failed', 'in_doubt') THEN
    RAISE EXCEPTION 'finish_purchase: unknown outcome %', p_outcome USING ERRCODE = 'ID003';
  END IF;
  t := lock_my_team();
  SELECT * INTO target FROM purchases WHERE purchase_id = p_purchase_id AND team_id = t.id FOR UPDATE;
  IF NOT FOUND THEN RETURN 'unknown'; END IF;
  IF target.state IN ('paid', 'failed') THEN RETURN target.state; END IF;
  IF target.member_role <> session_user AND now() < target.valid_before + interval '60 seconds' THEN
    RETURN 'not_yours';
  END IF;
  UPDATE purchases SET state = p_outcome, tx_hash = coalesce(p_tx_hash, tx_hash),
    finished_at = CASE WHEN p_outcome = 'in_doubt' THEN NULL ELSE now() END
    WHERE purchase_id = p_purchase_id;
  IF p_outcome = 'failed' THEN DELETE FROM claims WHERE purchase_id = p_purchase_id; END IF;
  RETURN p_outcome;
END $$;

-- A reservation nothing was signed for (the local reservation was refused, the person said no).
CREATE FUNCTION intel_desk.release_reservation(p_purchase_id uuid) RETURNS boolean ${FUNCTION_OPTIONS} AS $$
DECLARE t teams;
BEGIN
  t := lock_my_team();
  UPDATE purchases SET state = 'failed', finished_at = now()
    WHERE purchase_id = p_purchase_id AND team_id = t.id AND state = 'reserved' AND member_role = session_user;
  IF NOT FOUND THEN RETURN false; END IF;
  DELETE FROM claims WHERE purchase_id = p_purchase_id;
  RETURN true;
END $$;

-- A paid purchase's reports, each checked against its SHA-256, numbered and announced to the team.
CREATE FUNCTION intel_desk.publish_reports(p_purchase_id uuid, p_reports jsonb)
RETURNS integer ${FUNCTION_OPTIONS} AS $$
DECLARE
  t teams;
  target purchases;
  report jsonb;
  added integer := 0;
BEGIN
  t := lock_my_team();
  SELECT * INTO target FROM purchases WHERE purchase_id = p_purchase_id AND team_id = t.id;
  IF NOT FOUND OR target.state <> 'paid' OR target.member_role <> session_user THEN
    RAISE EXCEPTION 'publish_reports: purchase % is not a paid purchase of yours', p_purchase_id
      USING ERRCODE = 'ID004';
  END IF;
  FOR report IN SELECT * FROM jsonb_array_elements(p_reports) LOOP
    IF encode(sha256(convert_to(report->>'raw', 'UTF8')), 'hex') <> report->>'sha256' THEN
      RAISE EXCEPTION 'publish_reports: report % does not match its SHA-256', report->>'reportId'
        USING ERRCODE = 'ID005';
    END IF;
    INSERT INTO reports (team_id, service_url, handle, report_id, raw, sha256, purchase_id)
      VALUES (t.id, target.service_url, target.handle, report->>'reportId', report->>'raw', report->>'sha256',
        p_purchase_id)
      ON CONFLICT (team_id, service_url, report_id) DO NOTHING;
    IF FOUND THEN added := added + 1; END IF;
  END LOOP;
  IF added > 0 THEN PERFORM pg_notify('intel_desk_reports', t.id::text); END IF;
  RETURN added;
END $$;

ALTER TABLE intel_desk.teams ENABLE ROW LEVEL SECURITY;
ALTER TABLE intel_desk.purchases ENABLE ROW LEVEL SECURITY;
ALTER TABLE intel_desk.claims ENABLE ROW LEVEL SECURITY;
ALTER TABLE intel_desk.reports ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_team ON intel_desk.teams FOR SELECT USING (pg_has_role(session_user, group_role, 'MEMBER'));
CREATE POLICY own_team ON intel_desk.purchases FOR SELECT USING (team_id = (SELECT intel_desk.my_team()));
CREATE POLICY own_team ON intel_desk.claims FOR SELECT USING (team_id = (SELECT intel_desk.my_team()));
CREATE POLICY own_team ON intel_desk.reports FOR SELECT USING (team_id = (SELECT intel_desk.my_team()));
GRANT SELECT ON intel_desk.meta, intel_desk.teams, intel_desk.purchases, intel_desk.claims, intel_desk.reports
  TO ${MEMBER_ROLE};

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA intel_desk FROM PUBLIC;
GRANT EXECUTE ON FUNCTION intel_desk.my_team(), intel_desk.reserve_purchase(uuid, text, text, text[], numeric,
  text, text, text, text, timestamptz, text, text, boolean, boolean), intel_desk.finish_purchase(uuid, text, text),
  intel_desk.release_reservation(uuid), intel_desk.publish_reports(uuid, jsonb) TO ${MEMBER_ROLE};
`;

/** Entry N (0-based) moves the schema from version N to N+1. */
export const TEAM_MIGRATIONS: readonly string[] = [VERSION_1];
