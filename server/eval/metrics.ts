/*
 * Graded relevance metrics at a cut-off k. nDCG uses exponential gains (2^grade - 1) and the log2(rank + 1)
 * discount (Järvelin & Kekäläinen; Burges et al.), normalised by the best ranking the whole catalog allows.
 */

export const K = 10;
/** Precision counts a result relevant when it matches everything the query asked (grade 3). */
export const RELEVANT_GRADE = 3;

const dcg = (grades: readonly number[]) => grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);

export function ndcgAt(k: number, resultIds: readonly string[], grades: ReadonlyMap<string, number>): number {
  const ideal = dcg([...grades.values()].sort((a, b) => b - a).slice(0, k));
  if (ideal === 0) return 0;
  return dcg(resultIds.slice(0, k).map((id) => grades.get(id) ?? 0)) / ideal;
}

/** Share of the k places holding a fully relevant result (places left empty count as misses). */
export function precisionAt(k: number, resultIds: readonly string[], grades: ReadonlyMap<string, number>): number {
  return resultIds.slice(0, k).filter((id) => (grades.get(id) ?? 0) >= RELEVANT_GRADE).length / k;
}

export const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
