/** The commands that browse, buy, read and count reports, for the command table. */
import { UsageError } from './output';
import { form, library, need, SELECTION, SIGNER, withOptionText, type CliCommand } from './command-spec';

export const REPORT_COMMANDS: readonly CliCommand[] = [
  library('list', [form('list', 'the free shelf of handles')], [], async (desk, { out }) =>
    (await import('./commands-catalog')).list(desk, out),
  ),
  // The app calls it the Shelf: the same command under that name.
  library(
    'shelf',
    [form('shelf', 'the free shelf of handles (the same as list)')],
    [],
    async (desk, { out }) => (await import('./commands-catalog')).list(desk, out),
  ),
  library(
    'menu',
    [form('menu <handle>', "a handle's free report menu (owned reports marked)")],
    [],
    async (desk, { out, args }) =>
      (await import('./commands-catalog')).menu(desk, out, need(args, 0, 'handle')),
  ),
  library(
    'quote',
    [
      form(
        'quote <handle> --all | --from D --to D | --ids a,b | --missing',
        "the live price from the service's 402 challenge; reports you",
        'own are left out unless --include-owned (or --rebuy); dates are',
        'ISO: 2026-10-01 (whole day) or 2026-10-01T08:30:00Z; says whether',
        'buy pays or reads with the library secret (--pay: the price paid)',
      ),
    ],
    [...SELECTION, 'pay'],
    async (desk, { out, values, args }) => {
      await (await import('./commands-catalog')).quote(desk, out, need(args, 0, 'handle'), values);
    },
  ),
  library(
    'buy',
    [
      form(
        'buy <handle> (same selection) --yes [--pay]',
        'pay for the reports and store them (--over-cap, --accept-payee);',
        'with a library secret set they are read with it and nothing is',
        'paid, unless --pay',
      ),
    ],
    [...SELECTION, 'yes', 'pay', 'over-cap', 'accept-payee', ...SIGNER],
    async (desk, { out, values, args }) => {
      const [{ prepareSigner }, { buy }] = await Promise.all([
        import('./commands-wallet'),
        import('./commands-catalog'),
      ]);
      const handle = need(args, 0, 'handle');
      const cannotSign = await prepareSigner(desk, values);
      return buy(desk, out, handle, values, cannotSign);
    },
  ),
  library(
    'library',
    [
      form(
        'library [--handle h] [--limit N]',
        'everything you own (newest first; --limit: only the first N)',
      ),
    ],
    ['handle', 'limit'],
    async (desk, { out, values }) =>
      (await import('./commands-library')).library(desk, out, values.handle, values.limit),
  ),
  library(
    'search',
    [
      form(
        'search <query>',
        'search your library: words, "phrases", prefix*, handle:,',
        'model:, topic:, tag:, note:, after:/before:YYYY-MM-DD, posts>100,',
        'sentiment<0, AND/OR/NOT, ( ) (docs/search.md); --handle h',
      ),
    ],
    ['handle'],
    async (desk, { out, values, args }) =>
      (await import('./commands-query')).search(
        desk,
        out,
        args.join(' ') || need(args, 0, 'search query'),
        values.handle,
      ),
  ),
  library(
    'tag',
    [form('tag <reportId> add|remove <tag>', 'your own tags on an owned report (kept when bought again)')],
    [],
    async (desk, { out, args }) =>
      (await import('./commands-query')).tag(
        desk,
        out,
        need(args, 0, 'report id'),
        need(args, 1, 'add or remove'),
        need(args, 2, 'tag'),
      ),
  ),
  library(
    'note',
    [form('note <reportId> [text | --clear]', 'show, set or clear your note on an owned report')],
    ['clear'],
    async (desk, { out, values, args }) =>
      (await import('./commands-query')).note(
        desk,
        out,
        need(args, 0, 'report id'),
        args.slice(1).join(' '),
        values.clear ?? false,
      ),
  ),
  library('read', [form('read <reportId>', 'a report as text')], [], async (desk, { out, args }) =>
    (await import('./commands-library')).read(desk, out, need(args, 0, 'report id')),
  ),
  withOptionText(
    library(
      'export',
      [
        form(
          'export <reportId> --format json|md|pdf|csl-json|bibtex',
          'a report, or its citation, to stdout (pdf: redirect it to a file)',
        ),
        form(
          'export --handle H|--all --format md-folder --out DIR',
          "a handle's reports, or the whole library, as Markdown files with",
          'YAML front matter and an index per handle (for Obsidian and the like)',
        ),
      ],
      ['format', 'handle', 'all', 'out'],
      async (desk, { out, values, args }) => {
        if (values.format === 'md-folder' || values.out !== undefined)
          return (await import('./commands-export')).exportFolder(desk, out, values, args);
        if (values.handle !== undefined || values.all)
          throw new UsageError('--handle and --all go with --format md-folder --out DIR');
        const { exportFormatSchema } = await import('../shared/rpc');
        const format = exportFormatSchema.safeParse(values.format ?? 'json');
        if (!format.success)
          throw new UsageError('--format is json, md, pdf, csl-json or bibtex (md-folder with --out DIR)');
        return (await import('./commands-library')).exportReport(
          desk,
          out,
          need(args, 0, 'report id'),
          format.data,
        );
      },
    ),
    {
      handle: { value: 'H', text: 'every report of this handle (with --format md-folder)' },
      all: { text: 'every report in the library (with --format md-folder)' },
    },
  ),
  library(
    'diff',
    [
      form(
        'diff <reportA> <reportB>',
        'how the subject changed: analytics, topics, sentiment and a',
        'word diff of the narrative (either order; --json for data)',
      ),
    ],
    [],
    async (desk, { out, args }) =>
      (await import('./commands-diff')).diff(
        desk,
        out,
        need(args, 0, 'first report id'),
        need(args, 1, 'second report id'),
      ),
  ),
  library(
    'purchases',
    [
      form(
        'purchases [--csv [--from D] [--to D]]',
        'purchase history (in-doubt purchases are checked first); --csv',
        'writes it as CSV for an expense report',
      ),
    ],
    ['csv', 'from', 'to'],
    async (desk, { out, values }) => {
      if (values.csv)
        return (await import('./commands-receipt')).purchasesCsv(
          desk,
          (await import('../host/text/dates')).dateRange(values.from, values.to),
        );
      if (values.from !== undefined || values.to !== undefined)
        throw new UsageError('--from and --to go with --csv: purchases --csv --from D --to D');
      return (await import('./commands-library')).purchases(desk, out);
    },
  ),
  library(
    'spend',
    [
      form(
        'spend [--days N]',
        'spent today, this month and in all, by handle and by day (in-doubt',
        'purchases count in full, as for the daily cap; last 30 days)',
      ),
    ],
    ['days'],
    async (desk, { out, values }) => (await import('./commands-spend')).spend(desk, out, values.days),
  ),
  library(
    'caps',
    [
      form(
        'caps [--per-purchase USD] [--daily USD]',
        'the spending caps: shown, or set (a purchase over one needs --over-cap)',
      ),
    ],
    ['per-purchase', 'daily', 'passphrase-env'],
    async (desk, { out, values }) =>
      (await import('./commands-spend')).caps(
        desk,
        out,
        { perPurchase: values['per-purchase'], daily: values.daily },
        values,
      ),
  ),
  library(
    'budget',
    [
      form(
        'budget [<handle> <usd> | <handle> --clear]',
        "a handle's monthly budget: a purchase over it needs --over-cap;",
        'with no handle, the budgets set and what each has spent this month',
      ),
    ],
    ['clear', 'passphrase-env'],
    async (desk, { out, values, args }) => {
      const spend = await import('./commands-spend');
      if (args[0] === undefined && !values.clear) return spend.budgets(desk, out);
      return spend.budget(desk, out, need(args, 0, 'handle'), args[1], values.clear ?? false, values);
    },
  ),
  withOptionText(
    library(
      'receipt',
      [
        form(
          'receipt <purchaseId|transaction> [--verify] [--format json|pdf]',
          "a purchase's evidence, by its id or its transaction (as `purchases`",
          'shows them): challenge, authorization, transaction, payer, payee,',
          'amount and a SHA-256 of each delivered report;',
          "--verify checks it against the token's events on chain",
        ),
      ],
      ['verify', 'format'],
      async (desk, { out, values, args }) =>
        (await import('./commands-receipt')).receipt(desk, out, need(args, 0, 'purchase id or transaction'), {
          verify: values.verify ?? false,
          format: values.format,
        }),
    ),
    { format: { text: 'json or pdf (pdf: redirect it to a file)' } },
  ),
];
