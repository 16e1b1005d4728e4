package io.sluice.shuffle;

import io.sluice.storage.TypeKind;
import io.sluice.storage.ZoneMap;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.KeySpace;
import org.roaringbitmap.RoaringBitmap;

/**
 * Which CN, and which core on it, scans each block of a table (seed 003, colocate shuffle). For
 * range boundaries the scan is colocated: a block whose key range lies inside one CN's range is
 * read there, a block that straddles goes to the CN where most of its rows belong (keys taken as
 * uniform over the block's [min, max]; null keys belong to {@link BucketFunction#NULL_BUCKET}'s
 * CN, so an all-null block goes to CN 0), and inside that CN to the core by the same rule over
 * the core ranges. The range shuffle after such a scan keeps almost every row on its CN.
 *
 * <p>A hash shuffle cannot colocate: blocks are dealt round-robin over the CNs (then over each
 * CN's cores) and about {@code (cnCount - 1) / cnCount} of the rows cross CNs.
 */
public final class ScanAssignment {
    private final Topology topology;
    private final boolean colocated;
    private final int[] bucketOfBlock;
    private final RoaringBitmap[] cnBlocks;
    private final RoaringBitmap[] bucketBlocks;
    private final RoaringBitmap wholeBlocks;
    private final long[] cnRows;
    private final long rowCount;
    private final double expectedCrossRows;

    private ScanAssignment(final Topology topology, final boolean colocated, final int[] bucketOfBlock,
                           final ZoneMap[] zoneMaps, final BucketFunction function, final double expectedCrossRows) {
        this.topology = topology;
        this.colocated = colocated;
        this.bucketOfBlock = bucketOfBlock;
        this.expectedCrossRows = expectedCrossRows;
        this.cnBlocks = new RoaringBitmap[topology.cnCount()];
        this.cnRows = new long[topology.cnCount()];
        this.bucketBlocks = new RoaringBitmap[topology.bucketCount()];
        for (int k = 0; k < cnBlocks.length; k++) {
            cnBlocks[k] = new RoaringBitmap();
        }
        for (int b = 0; b < bucketBlocks.length; b++) {
            bucketBlocks[b] = new RoaringBitmap();
        }
        this.wholeBlocks = new RoaringBitmap();
        long rows = 0;
        for (int block = 0; block < bucketOfBlock.length; block++) {
            final int bucket = bucketOfBlock[block];
            final int cn = topology.cnOf(bucket);
            cnBlocks[cn].add(block);
            bucketBlocks[bucket].add(block);
            cnRows[cn] += zoneMaps[block].rowCount();
            rows += zoneMaps[block].rowCount();
            if (function.bucketOfRange(zoneMaps[block]) >= 0) {
                wholeBlocks.add(block);
            }
        }
        this.rowCount = rows;
        for (final RoaringBitmap bitmap : cnBlocks) {
            bitmap.runOptimize();
        }
        for (final RoaringBitmap bitmap : bucketBlocks) {
            bitmap.runOptimize();
        }
        wholeBlocks.runOptimize();
    }

    /**
     * Assigns a table's blocks for a shuffle on {@code boundaries}: colocated for range
     * boundaries, round-robin for hash.
     *
     * @param keyZoneMaps the zonemaps of the shuffle key column, one per block in block order
     */
    public static ScanAssignment of(final ZoneMap[] keyZoneMaps, final RangeBoundaries boundaries) {
        if (boundaries == null) {
            throw new IllegalArgumentException("no boundaries given: plan them with RangeBoundaries.plan first");
        }
        KeyQuantiles.requireValid(boundaries.kind(), keyZoneMaps);
        if (!boundaries.isRange()) {
            return roundRobin(keyZoneMaps, boundaries.topology(), boundaries.bucketFunction());
        }
        return colocate(keyZoneMaps, boundaries);
    }

    /** Deals blocks round-robin over the CNs, then over each CN's cores, for a hash shuffle on {@code topology}. */
    public static ScanAssignment roundRobin(final ZoneMap[] keyZoneMaps, final TypeKind kind, final Topology topology) {
        KeyQuantiles.requireValid(kind, keyZoneMaps);
        if (topology == null) {
            throw new IllegalArgumentException("no topology given: pass the CNs x cores to assign blocks to");
        }
        return roundRobin(keyZoneMaps, topology, new HashBucketFunction(topology.bucketCount(), kind));
    }

    private static ScanAssignment roundRobin(final ZoneMap[] zoneMaps, final Topology topology,
                                             final BucketFunction function) {
        final int cns = topology.cnCount();
        final int[] bucketOf = new int[zoneMaps.length];
        double cross = 0;
        for (int block = 0; block < zoneMaps.length; block++) {
            final int cn = block % cns;
            final int core = (block / cns) % topology.coresPerCn();
            bucketOf[block] = topology.firstBucketOf(cn) + core;
            final ZoneMap zm = zoneMaps[block];
            cross += zm.nonNullCount() * (double) (cns - 1) / cns;
            if (cn != topology.cnOf(BucketFunction.NULL_BUCKET)) {
                cross += zm.nullCount();
            }
        }
        return new ScanAssignment(topology, false, bucketOf, zoneMaps, function, cross);
    }

    private static ScanAssignment colocate(final ZoneMap[] zoneMaps, final RangeBoundaries boundaries) {
        final Topology topology = boundaries.topology();
        final TypeKind kind = boundaries.kind();
        final long[] cuts = boundaries.signedCuts();
        final int cores = topology.coresPerCn();
        final long[] cnCuts = new long[topology.cnCount() - 1];
        for (int k = 1; k < topology.cnCount(); k++) {
            cnCuts[k - 1] = cuts[k * cores - 1];
        }
        final int[] bucketOf = new int[zoneMaps.length];
        double cross = 0;
        for (int block = 0; block < zoneMaps.length; block++) {
            final ZoneMap zm = zoneMaps[block];
            if (!zm.hasValues()) {
                // Every row is null and belongs to the null bucket: read it there, nothing crosses.
                bucketOf[block] = BucketFunction.NULL_BUCKET;
                continue;
            }
            final long max = KeySpace.toSigned(kind, zm.max());
            final long start = KeySpace.startOf(KeySpace.toSigned(kind, zm.min()), max);
            final long end = KeySpace.endOf(max);
            final double width = KeySpace.width(start, end);
            final int cn = mostRowsIn(cnCuts, start, end, width, zm, 0, topology.cnCount() - 1,
                    topology.cnOf(BucketFunction.NULL_BUCKET));
            final int first = topology.firstBucketOf(cn);
            final int bucket = mostRowsIn(cuts, start, end, width, zm, first, first + cores - 1,
                    BucketFunction.NULL_BUCKET);
            bucketOf[block] = bucket;
            cross += zm.rowCount() - rowsKept(cnCuts, start, end, width, zm, cn, topology.cnOf(BucketFunction.NULL_BUCKET));
        }
        return new ScanAssignment(topology, true, bucketOf, zoneMaps, boundaries.bucketFunction(), cross);
    }

    /**
     * Of the ranges {@code first..last} (range {@code r} is {@code [cuts[r-1], cuts[r])}), the one
     * that would keep most of the block's rows, the lowest on a tie.
     */
    private static int mostRowsIn(final long[] cuts, final long start, final long end, final double width,
                                  final ZoneMap zm, final int first, final int last, final int nullRange) {
        final int lo = Math.max(first, KeySpace.countAtOrBelow(cuts, start));
        final int hi = Math.min(last, KeySpace.countAtOrBelow(cuts, end - 1));
        int best = nullRange >= first && nullRange <= last ? nullRange : first;
        double bestKept = rowsKept(cuts, start, end, width, zm, best, nullRange);
        for (int r = lo; r <= hi; r++) {
            final double kept = rowsKept(cuts, start, end, width, zm, r, nullRange);
            if (kept > bestKept || (kept == bestKept && r < best)) {
                best = r;
                bestKept = kept;
            }
        }
        return best;
    }

    /** The block's rows that belong to range {@code r}: its share of the key range, plus the nulls in the null range. */
    private static double rowsKept(final long[] cuts, final long start, final long end, final double width,
                                   final ZoneMap zm, final int r, final int nullRange) {
        final long lo = r == 0 ? Long.MIN_VALUE : cuts[r - 1];
        final long hi = r == cuts.length ? Long.MAX_VALUE : cuts[r];
        final long from = Math.max(start, lo);
        final long to = Math.min(end, hi);
        final double share = to > from ? KeySpace.width(from, to) / width : 0;
        return zm.nonNullCount() * share + (r == nullRange ? zm.nullCount() : 0);
    }

    /** The topology blocks are assigned over. */
    public Topology topology() {
        return topology;
    }

    /** Whether the assignment follows range boundaries (false: round-robin for hash). */
    public boolean colocated() {
        return colocated;
    }

    /** Blocks assigned. */
    public int blockCount() {
        return bucketOfBlock.length;
    }

    /** The CN that scans a block. */
    public int cnOf(final int block) {
        return topology.cnOf(bucketOf(block));
    }

    /** The bucket (CN and core) whose pipeline scans a block. */
    public int bucketOf(final int block) {
        if (block < 0 || block >= bucketOfBlock.length) {
            throw new IndexOutOfBoundsException("block " + block + " is not assigned: blocks are 0.."
                    + (bucketOfBlock.length - 1));
        }
        return bucketOfBlock[block];
    }

    /** A copy of the blocks a CN scans. */
    public RoaringBitmap blocksOfCn(final int cn) {
        if (cn < 0 || cn >= cnBlocks.length) {
            throw new IndexOutOfBoundsException("CN " + cn + " is not in topology " + topology
                    + ": use 0.." + (cnBlocks.length - 1));
        }
        return cnBlocks[cn].clone();
    }

    /** A copy of the blocks the pipeline of a bucket (CN and core) scans. */
    public RoaringBitmap blocksOfBucket(final int bucket) {
        if (bucket < 0 || bucket >= bucketBlocks.length) {
            throw new IndexOutOfBoundsException("bucket " + bucket + " is not in topology " + topology
                    + ": use 0.." + (bucketBlocks.length - 1));
        }
        return bucketBlocks[bucket].clone();
    }

    /** A copy of the blocks whose rows all fall in one bucket by their zonemap: routed whole, without per-row work. */
    public RoaringBitmap wholeBlocks() {
        return wholeBlocks.clone();
    }

    /** Rows each CN scans. */
    public long[] scannedRowsPerCn() {
        return cnRows.clone();
    }

    /** Rows in all blocks. */
    public long rowCount() {
        return rowCount;
    }

    /** Rows the shuffle after this scan is expected to send to another CN, from the zonemaps. */
    public double expectedCrossCnRows() {
        return expectedCrossRows;
    }

    /** {@link #expectedCrossCnRows()} as a fraction of all rows (0 for an empty table). */
    public double expectedCrossCnFraction() {
        return rowCount == 0 ? 0 : expectedCrossRows / rowCount;
    }

    @Override
    public String toString() {
        return "ScanAssignment[" + topology + (colocated ? ", colocated" : ", round-robin") + ", blocks="
                + bucketOfBlock.length + ", expected cross-CN fraction=" + expectedCrossCnFraction() + "]";
    }
}
