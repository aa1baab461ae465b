/**
 * The menu as a purchase planner: what All (the missing ones), All with the owned ones again and the person's
 * choice would cost, side by side.
 * Before the live quote answers they are estimates from the last price per report this desk knows (a purchase
 * or a quote); the live quote then confirms the choice's price, and the other two are estimated at its price
 * per report. With no price known, it says so rather than inventing one.
 */
import { allChoiceWords } from './choice-words';
import { useState } from 'react';
import type { QuoteView, Selection } from '../../../shared/rpc';
import { handleKey } from '../../../shared/handle-key';
import { useRpcQuery } from '../../rpc/context';
import { dateTime, localDay, plural, usd } from '../../format';
import { useChoiceQuote } from './useChoiceQuote';
import { purchaseText as t } from '../../text/purchase';

export interface PlanCounts {
  /** Every report on the menu. */
  all: number;
  /** Those not owned. */
  missing: number;
  /** What a purchase of the choice would buy (owned ones only when buying them again was chosen). */
  chosen: number;
}

/** `unit`: the price of one report, in token base units. */
function Cost(props: {
  id: string;
  label: string;
  count: number;
  unit: string | null;
  live?: QuoteView | undefined;
}) {
  const { count, unit, live } = props;
  let value: string;
  let note: string;
  if (live) {
    value = usd(live.amount);
    note = t('liveQuote');
  } else if (count === 0) {
    value = usd(0n);
    note = t('nothingToBuy');
  } else if (unit === null) {
    value = t('unknown');
    note = t('noPriceYet');
  } else {
    value = t('approximately', { amount: usd(BigInt(count) * BigInt(unit)) });
    note = t('estimate');
  }
  return (
    <div data-testid={`plan-${props.id}`}>
      <dt>{props.label}</dt>
      <dd>
        <strong>{value}</strong> <span className="muted small">{note}</span>
      </dd>
    </div>
  );
}

export function Planner(props: {
  handle: string;
  counts: PlanCounts;
  /** The choice's selection and whether the person is still changing it (the price panel's own inputs). */
  selection: Selection | null;
  includeOwned: boolean;
  settling: boolean;
}) {
  const last = useRpcQuery('quote.lastPrice', { handle: props.handle });
  const quote = useChoiceQuote(props.handle, props.selection, props.includeOwned);
  // Only a quote of the choice on screen confirms its price; one being replaced or failed does not.
  const live =
    props.selection !== null && !props.settling && !quote.isFetching && !quote.isError
      ? quote.data
      : undefined;
  // The last live quote shown here stays the price to estimate by when the choice changes or empties:
  // quote.lastPrice was read before that quote came and would forget a price the person has just seen.
  const [seen, setSeen] = useState<QuoteView | null>(null);
  if (live && live !== seen) setSeen(live);
  const { counts } = props;
  const known = last.data ?? null;
  const unit = live ? live.unitPriceUnits : (seen?.unitPriceUnits ?? known?.unitPriceUnits ?? null);
  const source = live
    ? t('estimatesLive', { unit: usd(live.unitPriceUnits) })
    : seen
      ? t('estimatesSeen', { unit: usd(seen.unitPriceUnits), when: dateTime(seen.fetchedAt) })
      : known
        ? t(known.source === 'purchase' ? 'estimatesPaid' : 'estimatesQuoted', {
            unit: usd(known.unitPriceUnits),
            day: localDay(known.at),
            forHandle:
              handleKey(known.handle) === handleKey(props.handle)
                ? ''
                : t('forHandle', { handle: known.handle }),
          })
        : last.isPending
          ? t('lookingUpPrice')
          : t('noPriceKnown');
  return (
    <section className="planner" aria-labelledby="planner-title" data-testid="planner">
      <h2 id="planner-title" className="planner-title">
        {t('plan')}
      </h2>
      <dl className="planner-costs">
        {/* The same words as the menu's "All reports" choice, which buys the missing ones unless the
            owned ones are chosen again: the two cards are that choice without and with them. */}
        <Cost
          id="missing-only"
          label={allChoiceWords(counts.all, counts.missing)}
          count={counts.missing}
          unit={unit}
        />
        <Cost
          id="all"
          label={
            counts.all > counts.missing
              ? t('allOwnedAgain', { all: counts.all, owned: counts.all - counts.missing })
              : t('allNoneOwned', { all: counts.all })
          }
          count={counts.all}
          unit={unit}
        />
        <Cost
          id="your-choice"
          label={t('yourChoice', { reports: plural(counts.chosen, t('report'), t('reports')) })}
          count={counts.chosen}
          unit={unit}
          live={live}
        />
      </dl>
      <p className="muted small" data-testid="plan-source">
        {source}
      </p>
    </section>
  );
}
