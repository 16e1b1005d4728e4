package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.ScanAssignment;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scan that is its own range shuffle (seed 003, colocate): one morsel per bucket, and the
 * worker taking bucket {@code b} reads the blocks {@link ScanAssignment} gives bucket {@code b}
 * whole, tagging them {@code shuffleIdx = b} without per-row work. A block whose key range
 * straddles buckets is read by each bucket it overlaps, each keeping only its own rows, so no
 * row crosses workers and no exchange is materialised.
 */
public final class ColocatedScan implements Source {
    private final TableScan scan;
    private final int keyColumn;
    private final BucketFunction function;
    /**
     * Per bucket, its blocks in the order of their smallest key (those of NULLs only last), each as
     * {@code block * 2}, plus 1 for a block that straddles buckets and is split by row: a bucket's rows
     * then arrive in key order when the table is stored by the key, straddling blocks at either end
     * included, and a group-by or join on the key above needs no hash slots while they ascend.
     */
    private final int[][] readOrder;
    private final int whole;
    private final int straddling;
    private final int firstBucket;
    private final AtomicLong wholeBlockReads = new AtomicLong();
    private final int localBuckets;

    /**
     * A colocated scan of every bucket, on one CN.
     *
     * @param keyColumn  the output column of {@code scan} the boundaries split
     * @param boundaries range boundaries, one bucket per worker
     */
    public ColocatedScan(final TableScan scan, final int keyColumn, final RangeBoundaries boundaries) {
        this(scan, keyColumn, boundaries, 0, boundaries.topology().bucketCount());
    }

    /**
     * A colocated scan of the buckets {@code [firstBucket, firstBucket + localBuckets)} of a CN:
     * morsel {@code m} reads bucket {@code firstBucket + m} and tags its batches {@code shuffleIdx = m},
     * the CN's core that owns that bucket.
     */
    public ColocatedScan(final TableScan scan, final int keyColumn, final RangeBoundaries boundaries,
                         final int firstBucket, final int localBuckets) {
        if (!boundaries.isRange()) {
            throw new IllegalArgumentException("a colocated scan needs range boundaries, got " + boundaries
                    + ": use a shuffle exchange for hash bucketing");
        }
        this.scan = scan;
        this.keyColumn = keyColumn;
        this.function = boundaries.bucketFunction();
        final RangeBucketFunction range = (RangeBucketFunction) function;
        final int buckets = function.bucketCount();
        final ZoneMap[] zoneMaps = scan.table().zoneMaps(scan.tableColumn(keyColumn));
        final ScanAssignment assignment = ScanAssignment.of(zoneMaps, boundaries);
        final List<List<Integer>> wholeOf = new ArrayList<>();
        final List<List<Integer>> splitOf = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            wholeOf.add(new ArrayList<>());
            splitOf.add(new ArrayList<>());
        }
        int w = 0;
        int s = 0;
        for (final int block : scan.blocks()) {
            if (assignment.wholeBlocks().contains(block)) {
                wholeOf.get(assignment.bucketOf(block)).add(block);
                w++;
                continue;
            }
            s++;
            final ZoneMap zm = zoneMaps[block];
            final int low = zm.hasValues() ? range.bucket(zm.min()) : BucketFunction.NULL_BUCKET;
            final int high = zm.hasValues() ? range.bucket(zm.max()) : BucketFunction.NULL_BUCKET;
            for (int b = low; b <= high; b++) {
                splitOf.get(b).add(block);
            }
            if (zm.nullCount() > 0 && low > BucketFunction.NULL_BUCKET) {
                splitOf.get(BucketFunction.NULL_BUCKET).add(block);
            }
        }
        this.readOrder = new int[buckets][];
        for (int b = 0; b < buckets; b++) {
            final List<Integer> entries = new ArrayList<>();
            wholeOf.get(b).forEach(block -> entries.add(block * 2));
            splitOf.get(b).forEach(block -> entries.add(block * 2 + 1));
            entries.sort(java.util.Comparator.comparingLong(e -> zoneMaps[e >> 1].hasValues()
                    ? zoneMaps[e >> 1].min() : Long.MAX_VALUE));
            readOrder[b] = entries.stream().mapToInt(Integer::intValue).toArray();
        }
        this.whole = w;
        this.straddling = s;
        this.firstBucket = firstBucket;
        this.localBuckets = localBuckets;
    }

    @Override
    public RowType rowType() {
        return scan.rowType();
    }

    @Override
    public int morselCount() {
        return localBuckets;
    }

    @Override
    public boolean ordered() {
        return false;
    }

    @Override
    public Reader openReader() {
        final ScanReading reading = scan.reading();
        final int[] scratch = new int[Block.MAX_ROWS];
        final int[] rowBuckets = new int[Block.MAX_ROWS];
        final boolean[] mine = new boolean[Block.MAX_ROWS];
        final ColumnVector[] keys = new ColumnVector[1];
        return (morsel, out) -> {
            final int bucket = firstBucket + morsel;
            for (final int entry : readOrder[bucket]) {
                final int block = entry >> 1;
                final Batch batch = reading.read(block, bucket);
                if (batch == null) {
                    continue;
                }
                if ((entry & 1) == 0) {
                    wholeBlockReads.incrementAndGet();
                    out.accept(batch.withShuffleIdx(morsel));
                    continue;
                }
                final int n = batch.rowCount();
                keys[0] = batch.column(keyColumn);
                function.buckets(keys, n, rowBuckets);
                for (int i = 0; i < n; i++) {
                    mine[i] = rowBuckets[i] == bucket;
                }
                final Batch kept = Vectors.select(batch, mine, scratch);
                if (kept != null) {
                    out.accept(kept.withShuffleIdx(morsel));
                }
            }
        };
    }

    /** The column of the scan's rows the range buckets split. */
    public int keyColumn() {
        return keyColumn;
    }

    /** The range buckets the blocks are read into. */
    public BucketFunction bucketFunction() {
        return function;
    }

    /** The scan it reads through (its runtime filters apply to every bucket's blocks). */
    public TableScan scan() {
        return scan;
    }

    /** Blocks read whole into their bucket so far, without per-row work. */
    public long wholeBlockReads() {
        return wholeBlockReads.get();
    }

    @Override
    public String toString() {
        return "colocated " + scan + " over buckets " + firstBucket + ".." + (firstBucket + localBuckets - 1)
                + " of " + function.bucketCount() + ": " + whole + " blocks routed whole, " + straddling
                + " straddling blocks read by each bucket they overlap and split by row (no row crosses CNs)";
    }
}
