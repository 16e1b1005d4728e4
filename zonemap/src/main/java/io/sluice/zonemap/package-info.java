/**
 * Statistics from zonemaps alone: table statistics, block pruning for predicates, and (later)
 * quantile cut points for range boundaries. The {@link io.sluice.storage.ZoneMap} value itself
 * lives in storage because every block file carries it.
 *
 * <p>Depends on storage.
 */
package io.sluice.zonemap;
