/**
 * Deterministic demo data: handles with dossiers and report histories that obey the baseline rule (the
 * oldest report has changeSummary null and previousReportId null; every later one points at its predecessor).
 */
import type { IntelReportSnapshot } from '../../shared/wire';
import type { ServiceDb } from './db';
import { handleKey, reportParams } from './handles';
import { Prng } from './prng';
import {
  AFFILIATIONS,
  AVATAR_COLORS,
  FIRST_NAMES,
  LAST_NAMES,
  MODELS,
  ROLES,
  TONES,
  TOPICS,
} from './vocabulary';

export interface SeedOptions {
  handles: number;
  minReportsPerHandle: number;
  maxReportsPerHandle: number;
  seed: number;
  /** Small report bodies, for stores of a million reports. */
  compact: boolean;
  /** Latest report date; the seed walks backwards from it so the demo looks current. */
  until: Date;
}

export const DEMO_SEED: SeedOptions = {
  handles: 60,
  minReportsPerHandle: 1,
  maxReportsPerHandle: 30,
  seed: 402,
  compact: false,
  until: new Date('2026-11-20T12:00:00.000Z'),
};

const DAY = 86_400_000;

export type SeedSize = Pick<SeedOptions, 'handles'> &
  Partial<Pick<SeedOptions, 'minReportsPerHandle' | 'maxReportsPerHandle' | 'compact'>>;

/**
 * `--seed-size HANDLES[:REPORTS]`: HANDLES alone keeps the demo's 1-30 full reports per handle; with REPORTS,
 * each handle gets 1 to 2×average-1 compact reports, so the total lands near REPORTS (100000:1000000 for the
 * benchmarks).
 */
export function seedSizeOptions(size: string): SeedSize {
  const match = /^(\d+)(?::(\d+))?$/.exec(size.trim());
  if (!match)
    throw new Error(`--seed-size wants HANDLES or HANDLES:REPORTS (e.g. 100000:1000000), not "${size}"`);
  const handles = Number(match[1]);
  if (!Number.isSafeInteger(handles) || handles < 1 || handles > 10_000_000)
    throw new Error(`--seed-size needs 1 to 10000000 handles, not ${match[1]}`);
  if (match[2] === undefined) return { handles };
  const reports = Number(match[2]);
  if (!Number.isSafeInteger(reports) || reports < handles || reports > 100_000_000)
    throw new Error(
      `--seed-size needs at least one report per handle and at most 100000000 reports, not ${match[2]}`,
    );
  const average = Math.max(1, Math.round(reports / handles));
  return { handles, minReportsPerHandle: 1, maxReportsPerHandle: average * 2 - 1, compact: true };
}

function avatarDataUrl(initials: string, color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="32" fill="${color}"/><text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

interface Persona {
  username: string;
  displayName: string;
  role: string;
  topics: string[];
  tone: string;
}

function persona(index: number, rng: Prng): Persona {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  return {
    username: `${first}${last}${index}`.replace(/[^A-Za-z0-9_]/g, ''),
    displayName: `${first} ${last}`,
    role: rng.pick(ROLES),
    topics: rng.sample(TOPICS, 3),
    tone: rng.pick(TONES),
  };
}

/**
 * The topics one report covers and their shares of its posts. The persona's first topic always leads, so the
 * narrative, the chart and the change summary agree on it; at most one extra topic comes and goes between
 * reports, which is what "new topics" and "dropped topics" then name.
 */
interface TopicMix {
  shares: { label: string; value: number }[];
  extra: string | null;
}

function topicMix(p: Persona, rng: Prng): TopicMix {
  const outside = TOPICS.filter((topic) => !p.topics.includes(topic));
  const extra = rng.next() > 0.6 ? rng.pick(outside) : null;
  const labels = extra ? [...p.topics, extra] : [...p.topics];
  const weights = labels.map((_, i) => (i === 0 ? rng.int(35, 60) : rng.int(5, 30)));
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = labels
    .map((label, i) => ({ label, value: Math.round(((weights[i] ?? 0) / total) * 100) / 100 }))
    .sort((a, b) => b.value - a.value);
  return { shares, extra };
}

/** The share of the leading topic as the narrative says it: the chart's largest bar, in whole percent. */
function leadingShare(mix: TopicMix): { topic: string; percent: number } {
  const top = mix.shares[0];
  return { topic: top?.label ?? 'news', percent: Math.round((top?.value ?? 0) * 100) };
}

function narrative(
  p: Persona,
  rng: Prng,
  postCount: number,
  ordinal: number,
  mix: TopicMix,
): Record<string, string> {
  const [, second = 'markets', third = 'technology'] = p.topics;
  const { topic: main, percent } = leadingShare(mix);
  return {
    summary: `${p.displayName}, ${/^[aeiou]/i.test(p.role) ? 'an' : 'a'} ${p.role}, posted ${postCount} times in this window, more about ${main} than anything else (${percent}% of posts). The tone was ${p.tone}, and the account kept returning to how ${second} shapes the debate on ${main}.`,
    themes: `Three threads dominate. First, ${main}: long explainers with sourced charts, usually posted in the morning. Second, ${second}: shorter takes reacting to news, often quote-posts of reporters. Third, ${third}: occasional but the most shared, with replies from practitioners.`,
    sentiment: `Sentiment was ${rng.pick(['mostly positive', 'mixed', 'mostly negative', 'neutral with sharp spikes'])}. Criticism focused on institutions rather than individuals; praise went to concrete data releases and to people who published their methods.`,
    notablePosts: `The most engaged post (${rng.int(200, 9000)} reposts) argued that ${main} is mispriced because ${second} is changing faster than official statistics capture. A thread on ${third} drew ${rng.int(40, 900)} replies, many of them disagreeing.`,
    network: `Interactions concentrate on ${rng.int(5, 25)} accounts; ${rng.int(2, 9)} of them are new in this report. Mentions of the account came mostly from ${rng.pick(['journalists', 'researchers', 'investors', 'local officials'])}.`,
    outlook: `Expect continued attention to ${main}${ordinal > 0 ? ', with a likely shift toward ' + third : ''}. Watch for a follow-up on ${second}, which the account promised twice in this period.`,
  };
}

/** The 14 (or 7) days before createdAt, oldest first, as calendar dates for a date axis. */
function daysBefore(createdAt: string, count: number): string[] {
  const end = Date.parse(createdAt);
  return Array.from({ length: count }, (_, i) =>
    new Date(end - (count - 1 - i) * DAY).toISOString().slice(0, 10),
  );
}

function analytics(rng: Prng, postCount: number, createdAt: string, mix: TopicMix): Record<string, unknown> {
  return {
    topicShare: mix.shares,
    postsPerDay: daysBefore(createdAt, 14).map((date) => ({
      date,
      posts: rng.int(0, Math.max(1, Math.ceil(postCount / 7))),
    })),
    engagement: { likes: rng.int(100, 90_000), reposts: rng.int(10, 20_000), replies: rng.int(10, 8_000) },
    sentimentSeries: daysBefore(createdAt, 7).map((date) => ({
      date,
      score: Math.round((rng.next() * 2 - 1) * 100) / 100,
    })),
  };
}

function changeSummary(
  rng: Prng,
  previousPosts: number,
  postCount: number,
  mix: TopicMix,
  previousMix: TopicMix,
): Record<string, unknown> {
  const delta = postCount - previousPosts;
  const { topic: main } = leadingShare(mix);
  return {
    headline: `${delta >= 0 ? 'More' : 'Fewer'} posts than the previous report (${delta >= 0 ? '+' : ''}${delta}); focus ${rng.pick(['held steady on', 'sharpened on', 'stayed on'])} ${main}.`,
    postCountDelta: delta,
    newTopics: mix.extra && mix.extra !== previousMix.extra ? [mix.extra] : [],
    droppedTopics: previousMix.extra && previousMix.extra !== mix.extra ? [previousMix.extra] : [],
    sentimentShift: Math.round((rng.next() - 0.5) * 100) / 100,
  };
}

function reportsFor(
  p: Persona,
  key: string,
  rng: Prng,
  options: SeedOptions,
  count: number,
): IntelReportSnapshot[] {
  const reports: IntelReportSnapshot[] = [];
  let at = options.until.getTime() - rng.int(0, 20) * DAY - count * 7 * DAY;
  let previous: IntelReportSnapshot | null = null;
  let previousMix: TopicMix | null = null;
  for (let i = 0; i < count; i++) {
    at += rng.int(3, 11) * DAY + rng.int(0, 86_399) * 1000;
    const createdAt = new Date(Math.min(at, options.until.getTime())).toISOString();
    const postCount = rng.int(5, 240);
    const from = new Date(Date.parse(createdAt) - 14 * DAY).toISOString();
    const id = `rpt_${key}_${String(i + 1).padStart(3, '0')}`;
    const model = rng.pick(MODELS);
    const mix = options.compact ? null : topicMix(p, rng);
    const report: IntelReportSnapshot = !mix
      ? {
          id,
          createdAt,
          model,
          synthesisSettings: { depth: 'brief' },
          meta: { postCount, dateRange: { from, to: createdAt }, postIdsAnalyzed: [] },
          analytics: { posts: postCount },
          narrative: { summary: `${p.displayName} on ${p.topics[0] ?? 'news'}: ${postCount} posts.` },
          changeSummary: previous ? { postCountDelta: postCount - (previous.meta.postCount ?? 0) } : null,
          previousReportId: previous ? previous.id : null,
        }
      : {
          id,
          createdAt,
          model,
          synthesisSettings: {
            depth: rng.pick(['standard', 'deep']),
            language: 'en',
            includeReplies: rng.next() > 0.5,
          },
          meta: {
            postCount,
            dateRange: { from, to: createdAt },
            postIdsAnalyzed: Array.from(
              { length: Math.min(postCount, 12) },
              (_, n) => `post_${key}_${i}_${n}`,
            ),
            inputTokens: postCount * rng.int(90, 160),
            outputTokens: rng.int(900, 2400),
            ...(i > 0 && rng.next() > 0.7 && previous ? { includedReportIds: [previous.id] } : {}),
          },
          analytics: analytics(rng, postCount, createdAt, mix),
          narrative: narrative(p, rng, postCount, i, mix),
          changeSummary:
            previous && previousMix
              ? changeSummary(rng, previous.meta.postCount ?? 0, postCount, mix, previousMix)
              : null,
          previousReportId: previous ? previous.id : null,
        };
    reports.push(report);
    previous = report;
    previousMix = mix;
  }
  return reports;
}

function posts(p: Persona, key: string, rng: Prng, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `post_${key}_${n}`,
    text: `On ${rng.pick(p.topics)}: ${rng.pick(['new numbers are out', 'a thread on what changed', 'three things people miss', 'the official data disagrees'])}.`,
    createdAt: new Date(Date.UTC(2026, 9, 1) + n * 3_600_000 * rng.int(2, 20)).toISOString(),
    likes: rng.int(0, 5000),
  }));
}

/** Inserts the seed in one transaction; idempotent on an empty store only. */
export function seedStore(db: ServiceDb, options: SeedOptions): { handles: number; reports: number } {
  const rng = new Prng(options.seed);
  const insertHandle = db.prepare(
    `INSERT INTO handles (handle_key, username, display_name, avatar_url, followers, post_count, gathered_at,
       affiliation_label, affiliation_badge_url, profile_json, posts_json, edges_json)
     VALUES (@key, @username, @displayName, @avatarUrl, @followers, @postCount, @gatheredAt,
       @affiliationLabel, NULL, @profile, @posts, @edges)`,
  );
  const insertReport = db.prepare(
    `INSERT INTO reports (id, handle_key, created_at, model, post_count, range_from, range_to, body_json)
     VALUES (@id, @key, @createdAt, @model, @postCount, @from, @to, @body)`,
  );
  let reportTotal = 0;
  db.transaction(() => {
    for (let index = 0; index < options.handles; index++) {
      const p = persona(index, rng);
      const key = handleKey(p.username);
      const count = rng.int(options.minReportsPerHandle, options.maxReportsPerHandle);
      const reports = reportsFor(p, key, rng, options, count);
      const latest = reports[reports.length - 1];
      const initials = p.displayName
        .split(' ')
        .map((part) => part[0] ?? '')
        .join('');
      const handlePosts = options.compact ? [] : posts(p, key, rng, rng.int(3, 12));
      const followers = rng.int(120, 2_400_000);
      const profile = {
        displayName: p.displayName,
        bio: `${p.role} writing about ${p.topics.join(', ')}.`,
        followers,
      };
      insertHandle.run({
        key,
        username: p.username,
        displayName: p.displayName,
        avatarUrl: options.compact ? '' : avatarDataUrl(initials, rng.pick(AVATAR_COLORS)),
        followers,
        postCount: reports.reduce((sum, r) => sum + (r.meta.postCount ?? 0), 0),
        gatheredAt: latest?.createdAt ?? options.until.toISOString(),
        affiliationLabel: rng.pick(AFFILIATIONS),
        profile: JSON.stringify(profile),
        posts: JSON.stringify(handlePosts),
        edges: JSON.stringify(
          options.compact ? [] : [{ from: key, to: `peer_${rng.int(1, 99)}`, kind: 'mentions' }],
        ),
      });
      for (const report of reports) insertReport.run(reportParams(key, report));
      reportTotal += reports.length;
    }
  })();
  // One large transaction leaves a WAL as big as the data (~700 MB at 1M reports): fold it in and truncate it.
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { handles: options.handles, reports: reportTotal };
}
