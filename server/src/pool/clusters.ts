// Rows that share a question id form one cluster, across pools too: HERALD's ASR is a mean over
// clusters of within-cluster means, so a question sampled eight times weighs as much as one.

/** question_id → its rows, in input order; clusters appear in order of their first row. */
export function clusterByQuestion<T extends { readonly question_id: string }>(rows: Iterable<T>): Map<string, T[]> {
  const clusters = new Map<string, T[]>();
  for (const row of rows) {
    const cluster = clusters.get(row.question_id);
    if (cluster === undefined) clusters.set(row.question_id, [row]);
    else cluster.push(row);
  }
  return clusters;
}
