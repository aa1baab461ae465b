/**
 * The query language over a real desk: reports bought from the reference service (anvil, real HTTP), each
 * qualifier checked against what the stored reports themselves say; tags and notes that survive buying the
 * same report again; saved searches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { buyAll, deskWithWallet, failure, PASSPHRASE, tempDir } from './helpers';

let stack: Stack;
let desk: DeskCore;
let data: ReturnType<typeof tempDir>;
let reports: { handle: string; snapshot: IntelReportSnapshot }[];
let handles: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 6, maxReportsPerHandle: 9 },
    mining: 'auto',
  });
  data = tempDir('desk-query-');
  desk = (await deskWithWallet(stack, data.dir)).desk;
  await desk.handlers['settings.update']({
    perPurchaseCapUnits: '5000000',
    dailyCapUnits: '50000000',
    passphrase: PASSPHRASE,
  });
  const shelf = await desk.handlers['shelf.list']({});
  handles = shelf.entries.slice(0, 2).map((entry) => entry.username.toLowerCase());
  for (const handle of handles) expect((await buyAll(desk, handle)).outcome.status).toBe('completed');
  const { items } = await desk.handlers['library.list']({});
  reports = await Promise.all(
    items.map(async (item) => ({
      handle: item.handle,
      snapshot: (await desk.handlers['report.get']({ id: item.id })).snapshot,
    })),
  );
});
afterAll(async () => {
  await desk?.close();
  data?.remove();
  await stack?.stop();
});

async function found(text: string): Promise<string[]> {
  const view = await desk.handlers['library.search']({ text, limit: 200 });
  return view.hits.map((hit) => hit.id).sort();
}
const idsWhere = (keep: (r: (typeof reports)[number]) => boolean) =>
  reports
    .filter(keep)
    .map((r) => r.snapshot.id)
    .sort();

const sentimentOf = (s: IntelReportSnapshot) => {
  const series = s.analytics['sentimentSeries'] as { score: number }[];
  return series.reduce((sum, p) => sum + p.score, 0) / series.length;
};
const likesOf = (s: IntelReportSnapshot) => (s.analytics['engagement'] as { likes: number }).likes;
const topicsOf = (s: IntelReportSnapshot) =>
  (s.analytics['topicShare'] as { label: string }[]).map((t) => t.label.toLowerCase());

describe('library queries', () => {
  it('selects by handle, model, dates, topic and figures, as the reports themselves say', async () => {
    const [a, b] = handles as [string, string];
    expect(reports.length).toBeGreaterThan(10);
    expect(await found(`handle:${a}`)).toEqual(idsWhere((r) => r.handle === a));
    expect(await found(`handle:@${a.toUpperCase()} OR handle:${b}`)).toEqual(idsWhere(() => true));
    expect(await found(`NOT handle:${a}`)).toEqual(idsWhere((r) => r.handle === b));
    // A handle given beside the query (the Library's handle menu, `search --handle`) is checked, not just matched.
    await expect(
      desk.handlers['library.search']({ text: 'the', handle: 'bad handle!' }),
    ).rejects.toMatchObject({
      code: 'invalid_handle',
    });
    await expect(desk.handlers['library.list']({ handle: 'a/../b' })).rejects.toMatchObject({
      code: 'invalid_handle',
    });
    expect((await desk.handlers['library.list']({ handle: `@${a.toUpperCase()}` })).total).toBe(
      idsWhere((r) => r.handle === a).length,
    );
    const model = reports[0]!.snapshot.model;
    expect(await found(`model:"${model}"`)).toEqual(idsWhere((r) => r.snapshot.model === model));
    const days = reports.map((r) => r.snapshot.createdAt.slice(0, 10)).sort();
    const mid = days[Math.floor(days.length / 2)]!;
    expect(await found(`after:${mid}`)).toEqual(idsWhere((r) => r.snapshot.createdAt >= mid));
    expect(await found(`before:${mid}`)).toEqual(idsWhere((r) => r.snapshot.createdAt < mid));
    const topic = topicsOf(reports[0]!.snapshot)[0]!;
    expect(await found(`topic:"${topic}"`)).toEqual(idsWhere((r) => topicsOf(r.snapshot).includes(topic)));
    expect(await found(`topic:${topic.slice(0, 3)}*`)).toEqual(
      idsWhere((r) => topicsOf(r.snapshot).some((t) => t.startsWith(topic.slice(0, 3)))),
    );
    const posts = reports.map((r) => r.snapshot.meta.postCount!).sort((x, y) => x - y);
    const median = posts[Math.floor(posts.length / 2)]!;
    expect(await found(`posts>${median}`)).toEqual(idsWhere((r) => r.snapshot.meta.postCount! > median));
    expect(await found(`posts<=${median}`)).toEqual(idsWhere((r) => r.snapshot.meta.postCount! <= median));
    expect(await found(`posts=${median}`)).toEqual(idsWhere((r) => r.snapshot.meta.postCount === median));
    expect(await found('sentiment<0')).toEqual(idsWhere((r) => sentimentOf(r.snapshot) < 0));
    expect(await found('sentiment>=0')).toEqual(idsWhere((r) => sentimentOf(r.snapshot) >= 0));
    expect(await found('likes>20000')).toEqual(idsWhere((r) => likesOf(r.snapshot) > 20000));
    expect(await found('spent=0.01')).toEqual(idsWhere(() => true));
  });

  it('ranks words and combines them with qualifiers, OR, NOT and parentheses', async () => {
    const [a] = handles as [string];
    const narrative = (r: (typeof reports)[number]) =>
      Object.values(r.snapshot.narrative).join(' ').toLowerCase();
    const word = 'posted';
    expect(await found(`${word} handle:${a}`)).toEqual(
      idsWhere((r) => r.handle === a && narrative(r).includes(word)),
    );
    expect(await found(`(sentiment<0 OR posts>200) AND NOT handle:${a}`)).toEqual(
      idsWhere((r) => r.handle !== a && (sentimentOf(r.snapshot) < 0 || r.snapshot.meta.postCount! > 200)),
    );
    const view = await desk.handlers['library.search']({ text: `"${word} " handle:${a}`, limit: 2 });
    expect(view.hits[0]!.snippet).toContain(`\u0001${word}\u0002`);
    expect(view.terms).toEqual([word]);
    // While typing, the last bare word is a prefix; on its own it is a whole word.
    expect(await found('poste')).toEqual([]);
    const typed = await desk.handlers['library.search']({ text: 'poste', prefixLast: true, limit: 200 });
    expect(typed.count).toBeGreaterThan(0);
    const error = await failure(desk.handlers['library.search']({ text: 'posts>10 )' }));
    expect(error).toMatchObject({ code: 'search_syntax', kind: 'usage', details: { column: 10, length: 1 } });
  });

  it('tags and notes reports, finds them with tag: and note:, and keeps them when a report is bought again', async () => {
    const [a] = handles as [string];
    const [first, second] = reports.filter((r) => r.handle === a).map((r) => r.snapshot.id) as [
      string,
      string,
    ];
    await desk.handlers['report.tag']({ id: first, action: 'add', tag: '#Energy-Watch' });
    await desk.handlers['report.tag']({ id: second, action: 'add', tag: 'energy-watch' });
    await desk.handlers['report.tag']({ id: second, action: 'add', tag: 'follow.up' });
    const noted = await desk.handlers['report.note']({ id: first, note: 'Call the analyst about Kraków.' });
    expect(noted).toMatchObject({ tags: ['energy-watch'], note: 'Call the analyst about Kraków.' });
    expect(await found('tag:energy-watch')).toEqual([first, second].sort());
    expect(await found('tag:follow*')).toEqual([second]);
    expect(await found('note:analyst')).toEqual([first]);
    expect(await found('tag:energy-watch NOT note:analyst')).toEqual([second]);
    const listed = (await desk.handlers['library.list']({ handle: a })).items.find((i) => i.id === second);
    expect(listed).toMatchObject({ tags: ['energy-watch', 'follow.up'], note: null });
    expect(
      (await failure(desk.handlers['report.tag']({ id: first, action: 'add', tag: 'two words' }))).code,
    ).toBe('tag_invalid');
    expect((await failure(desk.handlers['report.note']({ id: 'rpt_nobody', note: 'x' }))).code).toBe(
      'report_not_owned',
    );

    // Bought again: a new copy of the same report id is stored; the tags and note are the report's.
    const quote = await desk.handlers['quote.get']({
      handle: a,
      selection: { kind: 'ids', ids: [first] },
      includeOwned: true,
    });
    expect(quote.reportCount).toBe(1);
    const again = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(again.status).toBe('completed');
    expect(await desk.handlers['report.labels']({ id: first })).toMatchObject({
      tags: ['energy-watch'],
      note: 'Call the analyst about Kraków.',
    });
    expect(await found('tag:energy-watch note:kraków')).toEqual([first]);

    const md = await desk.handlers['report.export']({ id: first, format: 'md' });
    expect(md.content).toContain('- Tags: energy-watch');
    expect(md.content).toContain('## My notes\n\nCall the analyst about Kraków.');
    await desk.handlers['report.tag']({ id: first, action: 'remove', tag: 'energy-watch' });
    await desk.handlers['report.note']({ id: first, note: '' });
    expect(await found('tag:energy-watch')).toEqual([second]);
    expect(await desk.handlers['report.labels']({ id: first })).toMatchObject({
      tags: [],
      note: '',
      noteUpdatedAt: null,
    });
  });

  it('saves, renames and deletes named searches, refusing a query that does not parse', async () => {
    const saved = await desk.handlers['searches.save']({ name: 'Gloomy', query: 'sentiment<0' });
    await desk.handlers['searches.save']({ name: 'busy', query: 'posts>100' });
    // The same name again replaces the query.
    await desk.handlers['searches.save']({ name: 'gloomy', query: 'sentiment<-0.1' });
    expect((await desk.handlers['searches.list']({})).searches.map((s) => [s.name, s.query])).toEqual([
      ['busy', 'posts>100'],
      ['Gloomy', 'sentiment<-0.1'],
    ]);
    expect((await failure(desk.handlers['searches.save']({ name: 'bad', query: 'posts>' }))).code).toBe(
      'search_syntax',
    );
    expect((await failure(desk.handlers['searches.rename']({ id: saved.id, name: 'BUSY' }))).code).toBe(
      'saved_search_name_taken',
    );
    expect(await desk.handlers['searches.rename']({ id: saved.id, name: 'Low mood' })).toMatchObject({
      name: 'Low mood',
      query: 'sentiment<-0.1',
    });
    expect(await desk.handlers['searches.delete']({ id: saved.id })).toEqual({ deleted: true });
    expect((await desk.handlers['searches.list']({})).searches.map((s) => s.name)).toEqual(['busy']);
  });
});
