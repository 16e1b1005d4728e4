package io.sluice.shuffle;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.TableSketch;

/**
 * Everything a scan and the range shuffle after it need, from one key column's zonemaps and a
 * {@link Topology}: the key statistics, the bucket boundaries and the colocated scan assignment.
 * This is the entry point for a storage engine that embeds Sluice: it hands in its own blocks'
 * zonemaps (no Sluice table or schema needed) and gets back which CN and core reads each block
 * and the {@link BucketFunction} that routes each row. The {@link StraddlePolicy} (default
 * {@link StraddlePolicy#MAJORITY}) says whether a block straddling CN ranges is read once or by
 * each CN it overlaps; it is the assignment's, and {@link #assign} uses it for other tables too.
 *
 * @param stats       the key's statistics, from zonemaps alone
 * @param boundaries  the bucket boundaries (or the hash fallback and its reason)
 * @param assignment  which CN and core scans each block of the table the zonemaps describe
 */
public record ColocationPlan(KeyQuantiles stats, RangeBoundaries boundaries, ScanAssignment assignment) {
    /**
     * Checks that no part is missing.
     *
     * @param stats      the key's statistics
     * @param boundaries the bucket boundaries
     * @param assignment the colocated scan assignment
     * @throws IllegalArgumentException when any of them is null
     */
    public ColocationPlan {
        if (stats == null || boundaries == null || assignment == null) {
            throw new IllegalArgumentException("a colocation plan needs stats, boundaries and an assignment");
        }
    }

    /**
     * Plans from one key column's zonemaps (one per block, in block order) with the default thresholds.
     *
     * @param kind        the key column's kind; string zonemaps hold {@link io.sluice.format.StringKey} prefix keys
     * @param keyZoneMaps one zonemap per block, in block order
     * @param topology    the CNs x cores the shuffle runs on
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException naming the value and the rule on absent or inconsistent input
     */
    public static ColocationPlan of(final TypeKind kind, final ZoneMap[] keyZoneMaps, final Topology topology) {
        return of(kind, keyZoneMaps, topology, BoundaryConfig.DEFAULT);
    }

    /**
     * Plans from one key column's zonemaps, straddling blocks read by their majority CN.
     *
     * @param kind        the key column's kind; string zonemaps hold {@link io.sluice.format.StringKey} prefix keys
     * @param keyZoneMaps one zonemap per block, in block order
     * @param topology    the CNs x cores the shuffle runs on
     * @param config      the thresholds that choose the boundaries
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException naming the value and the rule on absent or inconsistent input
     */
    public static ColocationPlan of(final TypeKind kind, final ZoneMap[] keyZoneMaps, final Topology topology,
                                    final BoundaryConfig config) {
        return of(kind, keyZoneMaps, topology, config, StraddlePolicy.MAJORITY);
    }

    /**
     * Plans from one key column's zonemaps.
     *
     * @param kind        the key column's kind; string zonemaps hold {@link io.sluice.format.StringKey} prefix keys
     * @param keyZoneMaps one zonemap per block, in block order
     * @param topology    the CNs x cores the shuffle runs on
     * @param config      the thresholds that choose the boundaries
     * @param policy      what the scan does with a block that straddles CN ranges
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException naming the value and the rule on absent or inconsistent input
     */
    public static ColocationPlan of(final TypeKind kind, final ZoneMap[] keyZoneMaps, final Topology topology,
                                    final BoundaryConfig config, final StraddlePolicy policy) {
        requireParts(topology, config, policy);
        final KeyQuantiles stats = KeyQuantiles.of(kind, keyZoneMaps, config.maxSweptBlocks());
        final RangeBoundaries boundaries = RangeBoundaries.plan(stats, topology, config);
        return new ColocationPlan(stats, boundaries, ScanAssignment.of(keyZoneMaps, boundaries, policy));
    }

    private static void requireParts(final Topology topology, final BoundaryConfig config, final StraddlePolicy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("a colocation plan needs a straddle policy: StraddlePolicy.MAJORITY"
                    + " (the default) or StraddlePolicy.SPLIT");
        }
        if (topology == null || config == null) {
            throw new IllegalArgumentException("a colocation plan needs a topology (CNs x cores) and a config, got topology="
                    + topology + ", config=" + config);
        }
    }

    /**
     * Plans for a stored table's key column with the default thresholds.
     *
     * @param table     the table, from any storage behind the SPI
     * @param keyColumn the name of the column to shuffle by
     * @param topology  the CNs x cores the shuffle runs on
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException when the table has no such column (the message lists its columns)
     */
    public static ColocationPlan of(final BlockTable table, final String keyColumn, final Topology topology) {
        return of(table, keyColumn, topology, BoundaryConfig.DEFAULT);
    }

    /**
     * Plans for a stored table's key column, straddling blocks read by their majority CN.
     *
     * @param table     the table, from any storage behind the SPI
     * @param keyColumn the name of the column to shuffle by
     * @param topology  the CNs x cores the shuffle runs on
     * @param config    the thresholds that choose the boundaries
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException when the table has no such column (the message lists its columns)
     */
    public static ColocationPlan of(final BlockTable table, final String keyColumn, final Topology topology,
                                    final BoundaryConfig config) {
        return of(table, keyColumn, topology, config, StraddlePolicy.MAJORITY);
    }

    /**
     * Plans for a stored table's key column: from its zonemaps and, when the table keeps a
     * {@link TableSketch} and its blocks overlap, the key's sketch
     * ({@link KeyQuantiles#of(TypeKind, ZoneMap[], int, io.sluice.zonemap.ColumnSketch)}).
     *
     * @param table     the table, from any storage behind the SPI
     * @param keyColumn the name of the column to shuffle by
     * @param topology  the CNs x cores the shuffle runs on
     * @param config    the thresholds that choose the boundaries
     * @param policy    what the scan does with a block that straddles CN ranges
     * @return the statistics, boundaries and scan assignment
     * @throws IllegalArgumentException when the table has no such column (the message lists its columns)
     */
    public static ColocationPlan of(final BlockTable table, final String keyColumn, final Topology topology,
                                    final BoundaryConfig config, final StraddlePolicy policy) {
        final int column = table.schema().require(keyColumn);
        final TableSketch sketch = TableSketch.of(table);
        if (sketch == null) {
            return of(table.schema().type(column).kind(), table.zoneMaps(column), topology, config, policy);
        }
        requireParts(topology, config, policy);
        final ZoneMap[] keyZoneMaps = table.zoneMaps(column);
        final KeyQuantiles stats = KeyQuantiles.of(table.schema().type(column).kind(), keyZoneMaps,
                config.maxSweptBlocks(), sketch.column(column));
        final RangeBoundaries boundaries = RangeBoundaries.plan(stats, topology, config);
        return new ColocationPlan(stats, boundaries, ScanAssignment.of(keyZoneMaps, boundaries, policy));
    }

    /**
     * What the scan does with a block that straddles CN ranges: the assignment's policy.
     *
     * @return {@link StraddlePolicy#MAJORITY} unless the plan asked for another
     */
    public StraddlePolicy policy() {
        return assignment.policy();
    }

    /**
     * Assigns the blocks of another table joined on the same key (the build side) to the same
     * boundaries and the same {@link #policy()}, so both sides colocate.
     *
     * @param otherKeyZoneMaps the other table's zonemaps of its join key, one per block in block order
     * @return the other table's scan assignment
     * @throws IllegalArgumentException when those zonemaps are absent or inconsistent
     */
    public ScanAssignment assign(final ZoneMap[] otherKeyZoneMaps) {
        return ScanAssignment.of(otherKeyZoneMaps, boundaries, policy());
    }

    /**
     * The function that routes rows to buckets.
     *
     * @return the boundaries' function: range, or hash when they fell back to hash
     */
    public BucketFunction bucketFunction() {
        return boundaries.bucketFunction();
    }

    /**
     * Rows each bucket is expected to receive, from the zonemaps.
     *
     * @return a new array, one estimate per bucket, null-key rows counted in
     *         {@link BucketFunction#NULL_BUCKET}
     */
    public double[] estimatedRows() {
        return boundaries.estimatedRows(stats);
    }
}
