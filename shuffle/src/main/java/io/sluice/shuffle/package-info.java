/**
 * Bucketing: the {@link io.sluice.shuffle.Topology} of a query (CNs x cores = buckets) and the
 * {@link io.sluice.shuffle.BucketFunction}s that map keys to buckets, range (ordered, can colocate,
 * can place a whole zonemap) and hash (needs no statistics). The planner that chooses strategies,
 * boundaries and colocated scan assignments lives here too; the operators that use the functions
 * are in {@code io.sluice.shuffle.operator}.
 *
 * <p>Range shuffle planning: {@link io.sluice.shuffle.RangeBoundaries} turns zonemap statistics
 * ({@link io.sluice.zonemap.KeyQuantiles}) into the cut points of a {@link io.sluice.shuffle.Topology}
 * (equal-width, quantile, or a hash fallback with its {@link io.sluice.shuffle.HashReason}, under
 * the thresholds of {@link io.sluice.shuffle.BoundaryConfig}); {@link io.sluice.shuffle.ScanAssignment}
 * decides which CN and core scans each block so the shuffle keeps rows local; and
 * {@link io.sluice.shuffle.ColocationPlan} does both from one key column's zonemaps, the entry point
 * for a storage engine embedding Sluice.
 *
 * <p>Depends on zonemap, storage and RoaringBitmap.
 */
package io.sluice.shuffle;
