/**
 * Statistics from zonemaps alone, never from a data scan: {@link io.sluice.zonemap.TableStats}
 * and {@link io.sluice.zonemap.ColumnStats} (row and null counts, min/max keys, a distinct-count
 * estimate) for a stored table or for zonemaps handed in by another storage engine, and
 * {@link io.sluice.zonemap.BlockPruner}, which turns a {@link io.sluice.zonemap.Predicate} into
 * the set of blocks that may match. Quantile cut points for range boundaries will live here too.
 * The {@link io.sluice.storage.ZoneMap} value itself lives in storage because every block file
 * carries it.
 *
 * <p>Depends on storage and RoaringBitmap.
 */
package io.sluice.zonemap;
