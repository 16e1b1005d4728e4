/**
 * Statistics from zonemaps alone, never from a data scan: {@link io.sluice.zonemap.TableStats}
 * and {@link io.sluice.zonemap.ColumnStats} (row and null counts, min/max keys, a distinct-count
 * estimate) for a stored table or for zonemaps handed in by another storage engine, and
 * {@link io.sluice.zonemap.BlockPruner}, which turns a {@link io.sluice.zonemap.Predicate} into
 * the set of blocks that may match. {@link io.sluice.zonemap.KeyQuantiles} estimates
 * equi-depth cut points of a key (1023 by default, or any number a shuffle needs), how uniform the
 * key is and how much its blocks overlap, by treating each block as uniform over its zonemap;
 * {@link io.sluice.zonemap.KeySpace} does the key arithmetic in signed order.
 * The {@link io.sluice.format.ZoneMap} value itself lives in storage because every block file
 * carries it.
 *
 * <p>Depends on storage and RoaringBitmap.
 */
package io.sluice.zonemap;
