/**
 * What a query can ask of a report beyond its words: mean sentiment, engagement and topics, read from the
 * snapshot as stored. Migration 7 reads the same from libraries stored before it, in SQL: keep both alike.
 */
import type { IntelReportSnapshot } from '../../shared/wire';

export interface ReportFacts {
  sentiment: number | null;
  likes: number | null;
  reposts: number | null;
  replies: number | null;
  topics: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOr = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function reportFacts(snapshot: Pick<IntelReportSnapshot, 'analytics'>): ReportFacts {
  const analytics = isRecord(snapshot.analytics) ? snapshot.analytics : {};
  const series = Array.isArray(analytics['sentimentSeries']) ? analytics['sentimentSeries'] : [];
  const scores = series.flatMap((point) => {
    const score = isRecord(point) ? numberOr(point['score']) : null;
    return score === null ? [] : [score];
  });
  const engagement = isRecord(analytics['engagement']) ? analytics['engagement'] : {};
  const shares = Array.isArray(analytics['topicShare']) ? analytics['topicShare'] : [];
  const topics = shares.flatMap((share) => {
    const label = isRecord(share) && typeof share['label'] === 'string' ? share['label'].trim() : '';
    return label ? [label.toLowerCase()] : [];
  });
  return {
    sentiment: scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    likes: numberOr(engagement['likes']),
    reposts: numberOr(engagement['reposts']),
    replies: numberOr(engagement['replies']),
    topics: [...new Set(topics)],
  };
}
