package io.sluice.shuffle;

import io.sluice.format.ColumnVector;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.BlockTable;
import org.roaringbitmap.RoaringBitmap;

/**
 * Test oracle: scans a key column as a scan assignment says (each CN reads its blocks and, of a
 * block it shares with other CNs, keeps the rows of its CN range) and counts, row by row, the
 * bucket each kept row really goes to and whether that bucket's CN differs from the CN that read
 * the row. Buckets of range boundaries are found here by a plain search over the cut points, not
 * by RangeBucketFunction.
 */
public final class ExactShuffle {
    /**
     * Exact outcome of one table's shuffle.
     *
     * @param rows     rows kept by the scans (the table's rows, when each is kept exactly once)
     * @param readRows rows read by the scans, counting a block read by several CNs each time
     */
    public record Counts(long[] perBucket, long crossCnRows, long rows, long readRows) {
        public double crossFraction() {
            return rows == 0 ? 0 : (double) crossCnRows / rows;
        }

        /** Rows read beyond one read of each kept row, as a fraction of the kept rows. */
        public double extraReadFraction() {
            return rows == 0 ? 0 : (double) (readRows - rows) / rows;
        }

        /** Largest bucket over the mean bucket. */
        public double maxOverMean() {
            long max = 0;
            for (final long c : perBucket) {
                max = Math.max(max, c);
            }
            return max / ((double) rows / perBucket.length);
        }

        /** Smallest bucket over the mean bucket. */
        public double minOverMean() {
            long min = Long.MAX_VALUE;
            for (final long c : perBucket) {
                min = Math.min(min, c);
            }
            return min / ((double) rows / perBucket.length);
        }
    }

    private ExactShuffle() {
    }

    /** The range bucket of a key: how many cut points are at or below it, in the kind's key order. */
    public static int rangeBucket(final TypeKind kind, final long[] cuts, final long key) {
        int n = 0;
        while (n < cuts.length && kind.compareKeys(cuts[n], key) <= 0) {
            n++;
        }
        return n;
    }

    public static Counts scan(final BlockTable table, final String column, final RangeBoundaries boundaries,
                       final ScanAssignment assignment) {
        final int col = table.schema().require(column);
        final TypeKind kind = table.schema().type(col).kind();
        final long[] cuts = boundaries.cutPoints();
        final Topology topology = boundaries.topology();
        final long[] perBucket = new long[topology.bucketCount()];
        final int[] hashed = new int[8192];
        long cross = 0;
        long rows = 0;
        long read = 0;
        for (int scanCn = 0; scanCn < topology.cnCount(); scanCn++) {
            final RoaringBitmap filtered = assignment.filteredBlocksOfCn(scanCn);
            final KeyRange range = filtered.isEmpty() ? null : assignment.cnRange(scanCn);
            for (final int block : assignment.blocksOfCn(scanCn)) {
                final ColumnVector key = table.readBlock(block, col).column(0);
                final boolean filter = filtered.contains(block);
                read += key.rowCount();
                if (!boundaries.isRange()) {
                    boundaries.bucketFunction().buckets(new ColumnVector[] {key}, key.rowCount(), hashed);
                }
                for (int i = 0; i < key.rowCount(); i++) {
                    if (filter && !(key.isNull(i) ? range.holdsNulls() : range.contains(key.key(i)))) {
                        continue;
                    }
                    final int bucket;
                    if (key.isNull(i)) {
                        bucket = 0;
                    } else if (boundaries.isRange()) {
                        bucket = rangeBucket(kind, cuts, key.key(i));
                    } else {
                        bucket = hashed[i];
                    }
                    perBucket[bucket]++;
                    if (bucket / topology.coresPerCn() != scanCn) {
                        cross++;
                    }
                    rows++;
                }
            }
        }
        return new Counts(perBucket, cross, rows, read);
    }
}
