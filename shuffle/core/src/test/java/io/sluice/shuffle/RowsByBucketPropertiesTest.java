package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.TypeKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Properties of grouping a batch's rows by bucket ({@link RowsByBucket}, {@link BucketFunction#group}):
 * every row appears once, under the bucket an independent reference gives its key, in ascending
 * order inside its bucket, whatever the layout (lists, counting sort, runs), the function (range
 * with or without its slot table, hash), the key (64- or 32-bit, nulls or not) and the batch (empty,
 * one row, one bucket, every bucket, a full batch). One grouping is reused across batches of
 * different layouts, as an operator reuses it.
 */
class RowsByBucketPropertiesTest {

    /** How a batch's keys are drawn. */
    enum KeyShape { UNIFORM, ONE_BUCKET, EVERY_BUCKET_IN_TURN, SORTED, NARROW }

    /** Which function buckets the rows. */
    enum FunctionKind { RANGE_SLOT_TABLE, RANGE_SEARCH, HASH }

    @Provide
    Arbitrary<Integer> bucketCounts() {
        return Arbitraries.of(1, 2, 3, 6, 17, 63, 64, 65, 130, 1000);
    }

    @Provide
    Arbitrary<Integer> rowCounts() {
        return Arbitraries.of(0, 1, 2, 7, 64, 65, 1000, Block.MAX_ROWS - 1, Block.MAX_ROWS);
    }

    @Property(tries = 120)
    void everyRowIsGroupedUnderItsBucketInAscendingOrder(@ForAll final long seed,
                                                         @ForAll("bucketCounts") final int bucketCount,
                                                         @ForAll final FunctionKind functionKind,
                                                         @ForAll final boolean intKeys) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] cuts = functionKind == FunctionKind.HASH ? null : cuts(random, bucketCount, functionKind);
        final BucketFunction function = cuts == null
                ? new HashBucketFunction(bucketCount, intKeys ? TypeKind.INT32 : TypeKind.INT64)
                : new RangeBucketFunction(intKeys ? TypeKind.INT32 : TypeKind.INT64, cuts);
        if (cuts != null && bucketCount >= 4) {
            assertThat(((RangeBucketFunction) function).usesSlotTable())
                    .isEqualTo(functionKind == FunctionKind.RANGE_SLOT_TABLE);
        }
        final RowsByBucket grouped = new RowsByBucket(bucketCount);
        final int[] rowCounts = {0, 1, 2, 7, 64, 65, 1000, Block.MAX_ROWS - 1, Block.MAX_ROWS};
        for (int batch = 0; batch < 6; batch++) {
            final int rows = rowCounts[random.nextInt(rowCounts.length)];
            final KeyShape shape = KeyShape.values()[random.nextInt(KeyShape.values().length)];
            final double nullRate = random.nextInt(3) == 0 ? 0.2 : 0;
            final ColumnVector key = keys(random, rows, shape, cuts, bucketCount, intKeys, nullRate);
            final int[] expected = new int[rows];
            for (int r = 0; r < rows; r++) {
                expected[r] = referenceBucket(function, cuts, key, r);
            }
            // The function's own grouping, then the generic groupings of the same buckets.
            function.group(new ColumnVector[] {key}, rows, grouped);
            assertGrouped(grouped, expected, rows, "group() of " + function.getClass().getSimpleName());
            grouped.group(expected.clone(), rows);
            assertGrouped(grouped, expected, rows, "group(buckets)");
            if (rows > 0) {
                final boolean ascending = isNonDecreasing(expected, rows);
                assertThat(grouped.groupRuns(expected.clone(), rows)).isEqualTo(ascending);
                if (ascending) {
                    assertGrouped(grouped, expected, rows, "groupRuns");
                }
            }
        }
    }

    @Test
    void aGroupingForAnotherBucketCountIsRefusedWithBothCounts() {
        final BucketFunction function = new HashBucketFunction(6, TypeKind.INT64);
        assertThatThrownBy(() -> function.group(new ColumnVector[] {LongVector.ofInt64(1, 2)}, 2, new RowsByBucket(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 buckets")
                .hasMessageContaining("function of 6");
    }

    /** Every bucket's slice holds exactly the rows of that bucket, ascending; the one bucket is found. */
    private static void assertGrouped(final RowsByBucket grouped, final int[] expected, final int rows, final String how) {
        final int bucketCount = grouped.bucketCount();
        final List<List<Integer>> want = new ArrayList<>();
        for (int b = 0; b < bucketCount; b++) {
            want.add(new ArrayList<>());
        }
        for (int r = 0; r < rows; r++) {
            want.get(expected[r]).add(r);
        }
        int only = -1;
        int previousEnd = 0;
        for (int b = 0; b < bucketCount; b++) {
            final List<Integer> got = new ArrayList<>();
            assertThat(grouped.start(b)).as("%s: start of bucket %d", how, b).isGreaterThanOrEqualTo(previousEnd);
            for (int p = grouped.start(b); p < grouped.end(b); p++) {
                got.add(grouped.rows()[p]);
            }
            previousEnd = grouped.end(b);
            assertThat(got).as("%s: rows of bucket %d of %d", how, b, bucketCount).isEqualTo(want.get(b));
            if (rows > 0 && want.get(b).size() == rows) {
                only = b;
            }
        }
        assertThat(grouped.rowCount()).isEqualTo(rows);
        assertThat(grouped.onlyBucket()).as("%s: the one bucket", how).isEqualTo(only);
    }

    private static boolean isNonDecreasing(final int[] buckets, final int rows) {
        for (int r = 1; r < rows; r++) {
            if (buckets[r] < buckets[r - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Cut points over [-2^20, 2^20]: evenly spread for the slot table, or bunched (most within a
     * few keys, a last one far away) so that no small table fits and the function searches.
     */
    private static long[] cuts(final SplittableRandom random, final int bucketCount, final FunctionKind kind) {
        final TreeSet<Long> set = new TreeSet<>();
        if (kind == FunctionKind.RANGE_SEARCH && bucketCount >= 4) {
            while (set.size() < bucketCount - 2) {
                set.add((long) random.nextInt(4 * bucketCount));
            }
            set.add(1L << 40);
        } else {
            final long spacing = (1L << 21) / bucketCount;
            for (int i = 1; i < bucketCount; i++) {
                set.add(-(1L << 20) + i * spacing + random.nextLong(-spacing / 8, spacing / 8 + 1));
            }
        }
        return set.stream().mapToLong(Long::longValue).toArray();
    }

    private static ColumnVector keys(final SplittableRandom random, final int rows, final KeyShape shape,
                                     final long[] cuts, final int bucketCount, final boolean intKeys,
                                     final double nullRate) {
        final long[] values = new long[rows];
        final long low = cuts == null || cuts.length == 0 ? -(1L << 20) : cuts[0] - 100;
        final long high = cuts == null || cuts.length == 0 ? 1L << 20 : Math.min(cuts[cuts.length - 1] + 100, 1L << 30);
        final long constant = random.nextLong(low, high);
        for (int r = 0; r < rows; r++) {
            values[r] = switch (shape) {
                case UNIFORM, SORTED -> random.nextLong(low, high);
                case ONE_BUCKET -> constant;
                case EVERY_BUCKET_IN_TURN -> cuts == null || cuts.length == 0
                        ? r : cuts[Math.max(0, (r % bucketCount) - 1)] - (r % bucketCount == 0 ? 1 : 0);
                case NARROW -> constant + random.nextInt(3);
            };
        }
        if (shape == KeyShape.SORTED) {
            Arrays.sort(values);
        }
        long[] nulls = null;
        if (nullRate > 0) {
            nulls = new long[NullMask.words(rows)];
            for (int r = 0; r < rows; r++) {
                if (random.nextDouble() < nullRate) {
                    NullMask.setNull(nulls, r);
                    values[r] = 0;
                }
            }
        }
        if (intKeys) {
            final int[] ints = new int[rows];
            for (int r = 0; r < rows; r++) {
                ints[r] = (int) values[r];
            }
            return new IntVector(ColumnType.INT32, ints, rows, nulls);
        }
        return new LongVector(ColumnType.INT64, values, rows, nulls);
    }

    /** The bucket by definition: nulls in bucket 0, range by counting cut points, hash by the scalar hash. */
    private static int referenceBucket(final BucketFunction function, final long[] cuts, final ColumnVector key,
                                       final int row) {
        if (key.isNull(row)) {
            return BucketFunction.NULL_BUCKET;
        }
        final long value = key instanceof IntVector iv ? iv.get(row) : ((LongVector) key).get(row);
        if (cuts == null) {
            return ((HashBucketFunction) function).bucketOfHash(HashBucketFunction.hash(value));
        }
        return BucketFunctionPropertiesTest.referenceRange(TypeKind.INT64, cuts, value);
    }
}
