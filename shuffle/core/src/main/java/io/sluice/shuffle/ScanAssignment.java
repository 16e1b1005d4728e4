package io.sluice.shuffle;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.KeySpace;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Which CN, and which core on it, scans each block of a table (seed 003, colocate shuffle). For
 * range boundaries the scan is colocated: a block whose key range lies inside one CN's range is
 * read there, and inside that CN by the core whose bucket holds most of it (keys taken as uniform
 * over the block's [min, max]; null keys belong to {@link BucketFunction#NULL_BUCKET}'s CN, so an
 * all-null block is read on CN 0). A block that straddles CN ranges is handled by the
 * {@link StraddlePolicy}:
 *
 * <ul>
 *   <li>{@link StraddlePolicy#MAJORITY} (the default): it is read once, by the CN where most of its
 *       rows belong, and the range shuffle after the scan sends the rest across CNs
 *       ({@link #expectedCrossCnFraction()});</li>
 *   <li>{@link StraddlePolicy#SPLIT}: storage is shared, so it is read by every CN its rows may
 *       belong to (each CN its [min, max] overlaps, plus the null bucket's CN when it has null
 *       keys), on each of them by the core holding most of that CN's part, and each such CN keeps
 *       only the rows of its own {@link #cnRange(int)}. No row crosses CNs; the price is
 *       {@link #extraReadRows()}. {@link #filteredBlocksOfCn(int)} says which blocks need that row
 *       filter: a block read by one CN needs none.</li>
 * </ul>
 *
 * <p>A hash shuffle cannot colocate: blocks are dealt round-robin over the CNs (then over each
 * CN's cores), whatever the policy, and about {@code (cnCount - 1) / cnCount} of the rows cross CNs.
 */
public final class ScanAssignment {
    /** {@link #bucketOfBlock} of a block read by several CNs. */
    private static final int SHARED = -1;

    private final Topology topology;
    private final StraddlePolicy policy;
    private final boolean colocated;
    /** The CN ranges ({@code null} for round-robin): key kind and the CN cut points as keys. */
    private final TypeKind kind;
    private final long[] cnCuts;
    /** The one bucket that reads each block, or {@link #SHARED}. */
    private final int[] bucketOfBlock;
    private final RoaringBitmap[] cnBlocks;
    private final RoaringBitmap[] cnFiltered;
    private final RoaringBitmap[] bucketBlocks;
    private final RoaringBitmap wholeBlocks;
    private final long[] cnRows;
    private final long rowCount;
    private final long extraReadRows;
    private final double expectedCrossRows;

    /**
     * @param bucketBlocks the blocks each bucket reads; every block in at least one bucket and in at
     *                     most one bucket per CN
     */
    private ScanAssignment(final Topology topology, final StraddlePolicy policy, final RangeBoundaries ranges,
                           final RoaringBitmap[] bucketBlocks, final ZoneMap[] zoneMaps, final BucketFunction function,
                           final double expectedCrossRows) {
        this.topology = topology;
        this.policy = policy;
        this.colocated = ranges != null;
        this.kind = ranges == null ? null : ranges.kind();
        this.cnCuts = ranges == null ? null : ranges.cnCutPoints();
        this.bucketBlocks = bucketBlocks;
        this.expectedCrossRows = expectedCrossRows;
        this.bucketOfBlock = new int[zoneMaps.length];
        final int[] readers = new int[zoneMaps.length];
        this.cnBlocks = new RoaringBitmap[topology.cnCount()];
        this.cnFiltered = new RoaringBitmap[topology.cnCount()];
        this.cnRows = new long[topology.cnCount()];
        for (int k = 0; k < cnBlocks.length; k++) {
            cnBlocks[k] = new RoaringBitmap();
            cnFiltered[k] = new RoaringBitmap();
        }
        for (int bucket = 0; bucket < bucketBlocks.length; bucket++) {
            final int cn = topology.cnOf(bucket);
            final IntIterator blocks = bucketBlocks[bucket].getIntIterator();
            while (blocks.hasNext()) {
                final int block = blocks.next();
                cnBlocks[cn].add(block);
                cnRows[cn] += zoneMaps[block].rowCount();
                bucketOfBlock[block] = bucket;
                readers[block]++;
            }
            bucketBlocks[bucket].runOptimize();
        }
        this.wholeBlocks = new RoaringBitmap();
        long rows = 0;
        long extra = 0;
        for (int block = 0; block < zoneMaps.length; block++) {
            final long blockRows = zoneMaps[block].rowCount();
            rows += blockRows;
            if (readers[block] > 1) {
                bucketOfBlock[block] = SHARED;
                extra += (readers[block] - 1) * blockRows;
                for (int cn = 0; cn < cnBlocks.length; cn++) {
                    if (cnBlocks[cn].contains(block)) {
                        cnFiltered[cn].add(block);
                    }
                }
            }
            if (function.bucketOfRange(zoneMaps[block]) >= 0) {
                wholeBlocks.add(block);
            }
        }
        this.rowCount = rows;
        this.extraReadRows = extra;
        for (int cn = 0; cn < cnBlocks.length; cn++) {
            cnBlocks[cn].runOptimize();
            cnFiltered[cn].runOptimize();
        }
        wholeBlocks.runOptimize();
    }

    /**
     * Assigns a table's blocks for a shuffle on {@code boundaries} with the
     * {@link StraddlePolicy#MAJORITY} policy: colocated for range boundaries, round-robin for hash.
     *
     * @param keyZoneMaps the zonemaps of the shuffle key column, one per block in block order
     * @param boundaries  the shuffle's boundaries, planned for the same key
     * @return which bucket scans each block
     * @throws IllegalArgumentException when the boundaries are null or the zonemaps absent or
     *                                  inconsistent
     */
    public static ScanAssignment of(final ZoneMap[] keyZoneMaps, final RangeBoundaries boundaries) {
        return of(keyZoneMaps, boundaries, StraddlePolicy.MAJORITY);
    }

    /**
     * Assigns a table's blocks for a shuffle on {@code boundaries}: colocated for range boundaries,
     * with straddling blocks handled by {@code policy}; round-robin for hash whatever the policy
     * (hash buckets are not key ranges, so there is nothing to split a block by).
     *
     * @param keyZoneMaps the zonemaps of the shuffle key column, one per block in block order
     * @param boundaries  the shuffle's boundaries, planned for the same key
     * @param policy      what to do with a block that straddles CN ranges
     * @return which buckets scan each block
     * @throws IllegalArgumentException when the boundaries or the policy are null or the zonemaps
     *                                  absent or inconsistent
     */
    public static ScanAssignment of(final ZoneMap[] keyZoneMaps, final RangeBoundaries boundaries,
                                    final StraddlePolicy policy) {
        if (boundaries == null) {
            throw new IllegalArgumentException("no boundaries given: plan them with RangeBoundaries.plan first");
        }
        if (policy == null) {
            throw new IllegalArgumentException("no straddle policy given: use StraddlePolicy.MAJORITY (the default)"
                    + " or StraddlePolicy.SPLIT");
        }
        KeyQuantiles.requireValid(boundaries.kind(), keyZoneMaps);
        if (!boundaries.isRange()) {
            return roundRobin(keyZoneMaps, boundaries.topology(), boundaries.bucketFunction(), policy);
        }
        return colocate(keyZoneMaps, boundaries, policy);
    }

    /**
     * Deals blocks round-robin over the CNs, then over each CN's cores, for a hash shuffle on {@code topology}.
     *
     * @param keyZoneMaps the zonemaps of the shuffle key column, one per block in block order
     * @param kind        the key column's kind
     * @param topology    the CNs x cores to deal the blocks over
     * @return a round-robin assignment: block {@code b} on CN {@code b % cnCount}
     * @throws IllegalArgumentException when the topology is null or the zonemaps absent or inconsistent
     */
    public static ScanAssignment roundRobin(final ZoneMap[] keyZoneMaps, final TypeKind kind, final Topology topology) {
        KeyQuantiles.requireValid(kind, keyZoneMaps);
        if (topology == null) {
            throw new IllegalArgumentException("no topology given: pass the CNs x cores to assign blocks to");
        }
        return roundRobin(keyZoneMaps, topology, new HashBucketFunction(topology.bucketCount(), kind),
                StraddlePolicy.MAJORITY);
    }

    private static ScanAssignment roundRobin(final ZoneMap[] zoneMaps, final Topology topology,
                                             final BucketFunction function, final StraddlePolicy policy) {
        final int cns = topology.cnCount();
        final RoaringBitmap[] bucketBlocks = emptyBitmaps(topology.bucketCount());
        double cross = 0;
        for (int block = 0; block < zoneMaps.length; block++) {
            final int cn = block % cns;
            final int core = (block / cns) % topology.coresPerCn();
            bucketBlocks[topology.firstBucketOf(cn) + core].add(block);
            final ZoneMap zm = zoneMaps[block];
            cross += zm.nonNullCount() * (double) (cns - 1) / cns;
            if (cn != topology.cnOf(BucketFunction.NULL_BUCKET)) {
                cross += zm.nullCount();
            }
        }
        return new ScanAssignment(topology, policy, null, bucketBlocks, zoneMaps, function, cross);
    }

    private static ScanAssignment colocate(final ZoneMap[] zoneMaps, final RangeBoundaries boundaries,
                                           final StraddlePolicy policy) {
        final Topology topology = boundaries.topology();
        final TypeKind kind = boundaries.kind();
        final long[] cuts = boundaries.signedCuts();
        final int cores = topology.coresPerCn();
        final long[] cnCuts = new long[topology.cnCount() - 1];
        for (int k = 1; k < topology.cnCount(); k++) {
            cnCuts[k - 1] = cuts[k * cores - 1];
        }
        final int nullCn = topology.cnOf(BucketFunction.NULL_BUCKET);
        final RoaringBitmap[] bucketBlocks = emptyBitmaps(topology.bucketCount());
        double cross = 0;
        for (int block = 0; block < zoneMaps.length; block++) {
            final ZoneMap zm = zoneMaps[block];
            if (!zm.hasValues()) {
                // Every row is null and belongs to the null bucket: read it there, nothing crosses.
                bucketBlocks[BucketFunction.NULL_BUCKET].add(block);
                continue;
            }
            final long min = KeySpace.toSigned(kind, zm.min());
            final long max = KeySpace.toSigned(kind, zm.max());
            final long start = KeySpace.startOf(min, max);
            final long end = KeySpace.endOf(max);
            final double width = KeySpace.width(start, end);
            if (policy == StraddlePolicy.SPLIT) {
                // Exact, not estimated: every non-null key lies in [min, max], so its CN lies in
                // [CN of min, CN of max]; every null key belongs to the null CN.
                final int firstCn = KeySpace.countAtOrBelow(cnCuts, min);
                final int lastCn = KeySpace.countAtOrBelow(cnCuts, max);
                for (int cn = firstCn; cn <= lastCn; cn++) {
                    bucketBlocks[coreBucket(cuts, start, end, width, zm, topology, cn)].add(block);
                }
                if (zm.nullCount() > 0 && (nullCn < firstCn || nullCn > lastCn)) {
                    bucketBlocks[coreBucket(cuts, start, end, width, zm, topology, nullCn)].add(block);
                }
                continue;
            }
            final int cn = mostRowsIn(cnCuts, start, end, width, zm, 0, topology.cnCount() - 1, nullCn);
            bucketBlocks[coreBucket(cuts, start, end, width, zm, topology, cn)].add(block);
            cross += zm.rowCount() - rowsKept(cnCuts, start, end, width, zm, cn, nullCn);
        }
        return new ScanAssignment(topology, policy, boundaries, bucketBlocks, zoneMaps, boundaries.bucketFunction(), cross);
    }

    /** The bucket of CN {@code cn} whose core holds most of the block's rows that belong to that CN. */
    private static int coreBucket(final long[] cuts, final long start, final long end, final double width,
                                  final ZoneMap zm, final Topology topology, final int cn) {
        final int first = topology.firstBucketOf(cn);
        return mostRowsIn(cuts, start, end, width, zm, first, first + topology.coresPerCn() - 1,
                BucketFunction.NULL_BUCKET);
    }

    private static RoaringBitmap[] emptyBitmaps(final int count) {
        final RoaringBitmap[] bitmaps = new RoaringBitmap[count];
        for (int i = 0; i < count; i++) {
            bitmaps[i] = new RoaringBitmap();
        }
        return bitmaps;
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

    /**
     * The topology blocks are assigned over.
     *
     * @return the CNs x cores of the boundaries (or the one given for round-robin)
     */
    public Topology topology() {
        return topology;
    }

    /**
     * The policy for blocks that straddle CN ranges (recorded as asked for, but moot for round-robin).
     *
     * @return the policy
     */
    public StraddlePolicy policy() {
        return policy;
    }

    /**
     * Whether the assignment follows range boundaries (false: round-robin for hash).
     *
     * @return true for range boundaries
     */
    public boolean colocated() {
        return colocated;
    }

    /**
     * Blocks assigned.
     *
     * @return the number of zonemaps given, one per block
     */
    public int blockCount() {
        return bucketOfBlock.length;
    }

    /**
     * The CN that scans a block.
     *
     * @param block the block, 0 to {@link #blockCount()} - 1
     * @return the CN, 0 to {@code topology().cnCount() - 1}
     * @throws IndexOutOfBoundsException when there is no such block
     * @throws IllegalStateException for a block read by several CNs (only under
     *                               {@link StraddlePolicy#SPLIT}): no single CN scans it; ask
     *                               {@link #blocksOfCn(int)} and {@link #filteredBlocksOfCn(int)}
     */
    public int cnOf(final int block) {
        return topology.cnOf(bucketOf(block));
    }

    /**
     * The bucket (CN and core) whose pipeline scans a block.
     *
     * @param block the block, 0 to {@link #blockCount()} - 1
     * @return the bucket, 0 to {@code topology().bucketCount() - 1}
     * @throws IndexOutOfBoundsException when there is no such block
     * @throws IllegalStateException for a block read by several CNs (only under
     *                               {@link StraddlePolicy#SPLIT}): ask {@link #blocksOfBucket(int)}
     */
    public int bucketOf(final int block) {
        if (block < 0 || block >= bucketOfBlock.length) {
            throw new IndexOutOfBoundsException("block " + block + " is not assigned: blocks are 0.."
                    + (bucketOfBlock.length - 1));
        }
        final int bucket = bucketOfBlock[block];
        if (bucket == SHARED) {
            final StringBuilder cns = new StringBuilder();
            for (int cn = 0; cn < cnBlocks.length; cn++) {
                if (cnBlocks[cn].contains(block)) {
                    cns.append(cns.length() == 0 ? "" : ", ").append(cn);
                }
            }
            throw new IllegalStateException("block " + block + " straddles CN ranges and is read by CNs " + cns
                    + " (straddle policy " + policy.label() + "), not by one CN: use blocksOfCn/blocksOfBucket"
                    + " and filteredBlocksOfCn to find its readers");
        }
        return bucket;
    }

    /**
     * A copy of the blocks a CN scans (under {@link StraddlePolicy#SPLIT} a block can be in several CNs').
     *
     * @param cn the CN, 0 to {@code topology().cnCount() - 1}
     * @return a new bitmap of block numbers
     * @throws IndexOutOfBoundsException when the topology has no such CN
     */
    public RoaringBitmap blocksOfCn(final int cn) {
        return cnBlocks[checkCn(cn)].clone();
    }

    /**
     * A copy of the blocks a CN shares with other CNs (empty unless {@link StraddlePolicy#SPLIT}): a
     * scan of them must keep only the rows whose key is in {@link #cnRange(int)}. The CN keeps every
     * row of its other blocks.
     *
     * @param cn the CN, 0 to {@code topology().cnCount() - 1}
     * @return a new bitmap of block numbers, a subset of {@link #blocksOfCn(int)}
     * @throws IndexOutOfBoundsException when the topology has no such CN
     */
    public RoaringBitmap filteredBlocksOfCn(final int cn) {
        return cnFiltered[checkCn(cn)].clone();
    }

    /**
     * The keys, and whether the null keys, that belong to a CN: what it keeps of a block in
     * {@link #filteredBlocksOfCn(int)}.
     *
     * @param cn the CN, 0 to {@code topology().cnCount() - 1}
     * @return the CN's key range, open below for CN 0 and above for the last CN
     * @throws IndexOutOfBoundsException when the topology has no such CN
     * @throws IllegalStateException for a round-robin assignment (hash boundaries: no key ranges)
     */
    public KeyRange cnRange(final int cn) {
        checkCn(cn);
        if (!colocated) {
            throw new IllegalStateException("CN " + cn + " owns no key range: the shuffle hashes its key, so blocks are"
                    + " dealt round-robin and no scan filters rows");
        }
        final boolean hasFrom = cn > 0;
        final boolean hasTo = cn < cnCuts.length;
        return new KeyRange(kind, hasFrom, hasFrom ? cnCuts[cn - 1] : 0, hasTo, hasTo ? cnCuts[cn] : 0,
                cn == topology.cnOf(BucketFunction.NULL_BUCKET));
    }

    /**
     * A copy of the blocks the pipeline of a bucket (CN and core) scans. A block a CN shares with
     * other CNs is read there by one of its cores, the one whose bucket holds most of that CN's part.
     *
     * @param bucket the bucket, 0 to {@code topology().bucketCount() - 1}
     * @return a new bitmap of block numbers
     * @throws IndexOutOfBoundsException when the topology has no such bucket
     */
    public RoaringBitmap blocksOfBucket(final int bucket) {
        return bucketBlocks[checkBucket(bucket)].clone();
    }

    /**
     * A copy of the blocks of {@link #blocksOfBucket(int)} that its CN shares with other CNs: the
     * pipeline keeps only their rows in its CN's {@link #cnRange(int)} (the CN's range, not the
     * bucket's: the shuffle after the scan sends each kept row to its core).
     *
     * @param bucket the bucket, 0 to {@code topology().bucketCount() - 1}
     * @return a new bitmap of block numbers
     * @throws IndexOutOfBoundsException when the topology has no such bucket
     */
    public RoaringBitmap filteredBlocksOfBucket(final int bucket) {
        return RoaringBitmap.and(bucketBlocks[checkBucket(bucket)], cnFiltered[topology.cnOf(bucket)]);
    }

    private int checkCn(final int cn) {
        if (cn < 0 || cn >= cnBlocks.length) {
            throw new IndexOutOfBoundsException("CN " + cn + " is not in topology " + topology
                    + ": use 0.." + (cnBlocks.length - 1));
        }
        return cn;
    }

    private int checkBucket(final int bucket) {
        if (bucket < 0 || bucket >= bucketBlocks.length) {
            throw new IndexOutOfBoundsException("bucket " + bucket + " is not in topology " + topology
                    + ": use 0.." + (bucketBlocks.length - 1));
        }
        return bucket;
    }

    /**
     * A copy of the blocks whose rows all fall in one bucket by their zonemap: routed whole, without per-row work.
     *
     * @return a new bitmap of block numbers
     */
    public RoaringBitmap wholeBlocks() {
        return wholeBlocks.clone();
    }

    /**
     * Rows each CN reads: every row of every block it scans, so they add up to {@code rowCount() + extraReadRows()}.
     *
     * @return a new array, one count per CN
     */
    public long[] scannedRowsPerCn() {
        return cnRows.clone();
    }

    /**
     * Rows in all blocks.
     *
     * @return the sum of the zonemaps' row counts
     */
    public long rowCount() {
        return rowCount;
    }

    /**
     * Rows read beyond one read of the table: each block read by {@code n} CNs counts its rows
     * {@code n - 1} times. Exact (block row counts are), and 0 unless {@link StraddlePolicy#SPLIT}.
     *
     * @return the extra rows, 0 or more
     */
    public long extraReadRows() {
        return extraReadRows;
    }

    /**
     * {@link #extraReadRows()} as a fraction of all rows (0 for an empty table).
     *
     * @return 0 or more; 1 means the table is read twice over
     */
    public double extraReadFraction() {
        return rowCount == 0 ? 0 : (double) extraReadRows / rowCount;
    }

    /**
     * Rows the shuffle after this scan is expected to send to another CN, from the zonemaps; 0 for a
     * colocated {@link StraddlePolicy#SPLIT} scan, whose CNs keep only their own rows.
     *
     * @return the estimate, 0 to {@link #rowCount()}
     */
    public double expectedCrossCnRows() {
        return expectedCrossRows;
    }

    /**
     * {@link #expectedCrossCnRows()} as a fraction of all rows (0 for an empty table).
     *
     * @return the fraction, in [0, 1]
     */
    public double expectedCrossCnFraction() {
        return rowCount == 0 ? 0 : expectedCrossRows / rowCount;
    }

    @Override
    public String toString() {
        return "ScanAssignment[" + topology + (colocated ? ", colocated, straddle " + policy.label() : ", round-robin")
                + ", blocks=" + bucketOfBlock.length + ", expected cross-CN fraction=" + expectedCrossCnFraction()
                + ", extra read fraction=" + extraReadFraction() + "]";
    }
}
