/**
 * Bucketing: the {@link io.sluice.shuffle.Topology} of a query (CNs x cores = buckets) and the
 * {@link io.sluice.shuffle.BucketFunction}s that map keys to buckets, range (ordered, can colocate,
 * can place a whole zonemap) and hash (needs no statistics), {@link io.sluice.shuffle.RowsByBucket}
 * (a batch's rows grouped by bucket, the columnar half of a split), the boundaries and colocated scan
 * assignments of a range shuffle; the shuffle operator that uses them is in
 * {@code io.sluice.shuffle.operator}. With it, this is the bucketing core a storage engine embeds
 * (artifact {@code sluice-shuffle}).
 *
 * <p>Range shuffle planning: {@link io.sluice.shuffle.RangeBoundaries} turns zonemap statistics
 * ({@link io.sluice.zonemap.KeyQuantiles}) into the cut points of a {@link io.sluice.shuffle.Topology}
 * (equal-width, quantile, or a hash fallback with its {@link io.sluice.shuffle.HashReason}, under
 * the thresholds of {@link io.sluice.shuffle.BoundaryConfig}); {@link io.sluice.shuffle.ScanAssignment}
 * decides which CN and core scans each block so the shuffle keeps rows local, a block that
 * straddles CN ranges being read once by its majority CN or, under
 * {@link io.sluice.shuffle.StraddlePolicy#SPLIT}, by every CN it overlaps, each keeping the rows of
 * its own {@link io.sluice.shuffle.KeyRange}; and
 * {@link io.sluice.shuffle.ColocationPlan} does both from one key column's zonemaps, the entry point
 * for a storage engine embedding Sluice.
 *
 * <p>Depends on zonemap, the format (with its storage SPI), Agrona and RoaringBitmap.
 */
package io.sluice.shuffle;
