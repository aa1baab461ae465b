/** What `report.diff` answers: how a subject changed between two owned reports, older first. */

export interface DiffSide {
  id: string;
  handle: string;
  createdAt: string;
  model: string;
}

/** A number read from analytics: a value, or the mean of a numeric series. Null where one side lacks it. */
export interface MetricChange {
  name: string;
  kind: 'value' | 'mean';
  before: number | null;
  after: number | null;
  delta: number | null;
}

/** One label of a labelled analytics array (topic shares and the like). */
export interface ShareChange {
  field: string;
  label: string;
  /** The field's values are fractions of one: shown as percentages, changes in percentage points. */
  percent: boolean;
  before: number | null;
  after: number | null;
  delta: number | null;
}

export interface SentimentChange {
  before: number | null;
  after: number | null;
  shift: number | null;
}

export interface NarrativePart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface NarrativeChange {
  section: string;
  changed: boolean;
  parts: NarrativePart[];
}

export interface ReportDiff {
  older: DiffSide;
  newer: DiffSide;
  sameHandle: boolean;
  /** Owned reports of the handle dated between the two; null when they are of different handles. */
  reportsBetween: number | null;
  /** Reports dated between the two that the handle's last menu seen lists and you do not own; null as above. */
  notOwnedBetween: number | null;
  metrics: MetricChange[];
  shares: ShareChange[];
  topicsAdded: string[];
  topicsDropped: string[];
  sentiment: SentimentChange;
  narrative: NarrativeChange[];
}
