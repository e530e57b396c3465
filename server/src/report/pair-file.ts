import type { AuditReport, WorkedPair } from './schema.js';

/**
 * The file a worked pair's trajectory is in, relative to the spec's folder: its own when the pool
 * links several files (a glob), else its pool's. Every view names a pair's row through this.
 */
export function pairFile(audit: Pick<AuditReport, 'pools'>, pair: Pick<WorkedPair, 'pool' | 'file'>): string {
  return pair.file ?? audit.pools.find((p) => p.name === pair.pool)?.file ?? pair.pool;
}
