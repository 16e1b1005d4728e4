package io.sluice.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShuffleOperatorTest {
    static final Schema LONGS = Schema.parse("k:int64,a:int64,b:int64,c:int64");

    static LongVector sequence(final long from, final int rows) {
        final long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = from + i;
        }
        return LongVector.ofInt64(values);
    }

    static Batch longs(final long from, final int rows) {
        final LongVector k = sequence(from, rows);
        return Batch.of(k, sequence(from * 10, rows), sequence(-from, rows), sequence(7, rows));
    }

    static ShuffleOperator operator(final Schema schema, final BucketFunction f, final long poolBytes,
                                    final WholeBatchRouting routing) {
        return new ShuffleOperator(schema, new int[] {0}, f, new ShuffleOptions(poolBytes, routing));
    }

    static List<Batch> collect(final ShuffleOperator operator, final List<Batch> input) {
        final List<Batch> out = new ArrayList<>();
        for (final Batch b : input) {
            operator.push(b, out::add);
        }
        operator.finish(out::add);
        return out;
    }

    @Test
    void splitsTheSeedExampleInTwo() {
        // Seed 003: a batch of 1..8192 into two buckets gives 1..4096 and 4097..8192.
        final Schema schema = Schema.parse("k:int64");
        final ShuffleOperator operator = new ShuffleOperator(schema, 0,
                new RangeBucketFunction(TypeKind.INT64, new long[] {4097}));
        final List<long[]> keys = new ArrayList<>();
        final List<Integer> tags = new ArrayList<>();
        operator.push(Batch.of(sequence(1, 8192)), b -> { });
        operator.finish(b -> {
            tags.add(b.shuffleIdx());
            keys.add(((LongVector) b.column(0)).values().clone());
        });
        assertThat(tags).containsExactly(0, 1);
        assertThat(keys.get(0)[0]).isEqualTo(1);
        assertThat(keys.get(0)[4095]).isEqualTo(4096);
        assertThat(keys.get(1)[0]).isEqualTo(4097);
        assertThat(keys.get(1)[4095]).isEqualTo(8192);
        assertThat(operator.counters().rowsPerBucket()).containsExactly(4096, 4096);
    }

    @Test
    void aBatchInsideOneBucketIsTaggedWholeWithoutCopy() {
        final ShuffleOperator operator = operator(LONGS, new RangeBucketFunction(TypeKind.INT64, new long[] {1000, 20_000}),
                ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.WHEN_PROVEN);
        final Batch input = longs(1000, 8192);
        final Block block = Block.of(input.column(0), input.column(1), input.column(2), input.column(3));
        operator.addInput(Batch.of(block));
        final Batch out = operator.getOutput();
        assertThat(out.shuffleIdx()).isEqualTo(1);
        assertThat(out.isPooled()).isFalse();
        for (int c = 0; c < 4; c++) {
            assertThat(out.column(c)).isSameAs(block.column(c));
        }
        out.release();
        out.release(); // not pooled: nothing to give back, so nothing to complain about
        operator.finish();
        assertThat(operator.getOutput()).isNull();
        assertThat(operator.isFinished()).isTrue();
        final ShuffleCounters counters = operator.counters();
        assertThat(counters.wholeBatchRoutes()).isEqualTo(1);
        assertThat(counters.splitBatches()).isZero();
        assertThat(counters.peakBufferedBytes()).isZero();
    }

    @Test
    void aBatchWhoseRowsAllBucketTogetherIsPassedOnWholeAfterBucketingNeverCopied() {
        final HashBucketFunction f = new HashBucketFunction(4, TypeKind.INT64);
        // Unsorted keys without a zonemap that all hash to one bucket: found by bucketing candidates.
        final long[] candidates = new long[4096];
        for (int i = 0; i < candidates.length; i++) {
            candidates[i] = (i * 7919L) % 4096;
        }
        final int[] buckets = new int[candidates.length];
        f.buckets(new ColumnVector[] {LongVector.ofInt64(candidates)}, candidates.length, buckets);
        final long[] sameBucket = new long[candidates.length];
        int n = 0;
        for (int i = 0; i < candidates.length; i++) {
            if (buckets[i] == buckets[0]) {
                sameBucket[n++] = candidates[i];
            }
        }
        final long[] allNull = new long[NullMask.words(3)];
        for (int r = 0; r < 3; r++) {
            NullMask.setNull(allNull, r);
        }
        final List<Batch> inputs = List.of(
                Batch.of(LongVector.ofInt64(java.util.Arrays.copyOf(sameBucket, n)), sequence(0, n), sequence(1, n),
                        sequence(2, n)),
                Batch.of(LongVector.ofInt64(42, 42, 42, 42, 42), sequence(0, 5), sequence(1, 5), sequence(2, 5)),
                Batch.of(LongVector.ofInt64(9), sequence(0, 1), sequence(1, 1), sequence(2, 1)),
                Batch.of(new LongVector(ColumnType.INT64, new long[3], 3, allNull), sequence(0, 3), sequence(1, 3),
                        sequence(2, 3)));
        final int[] expectedBuckets = new int[inputs.size()];
        for (int i = 0; i < inputs.size(); i++) {
            final int[] rowBuckets = new int[inputs.get(i).rowCount()];
            f.buckets(new ColumnVector[] {inputs.get(i).column(0)}, rowBuckets.length, rowBuckets);
            assertThat(rowBuckets).as("input %d bucketed", i).containsOnly(rowBuckets[0]);
            expectedBuckets[i] = rowBuckets[0];
        }
        assertThat(expectedBuckets[3]).isEqualTo(BucketFunction.NULL_BUCKET);

        final ShuffleOperator operator = operator(LONGS, f, ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.WHEN_PROVEN);
        for (int i = 0; i < inputs.size(); i++) {
            operator.addInput(inputs.get(i));
            final Batch out = operator.getOutput();
            assertThat(out.shuffleIdx()).isEqualTo(expectedBuckets[i]);
            assertThat(out.isPooled()).isFalse();
            for (int c = 0; c < 4; c++) {
                assertThat(out.column(c)).isSameAs(inputs.get(i).column(c));
            }
        }
        operator.finish();
        assertThat(operator.getOutput()).isNull();
        final ShuffleCounters counters = operator.counters();
        assertThat(counters.wholeBatchRoutes()).isEqualTo(inputs.size());
        assertThat(counters.wholeAfterBucketing()).isEqualTo(inputs.size());
        assertThat(counters.splitBatches()).isZero();
        assertThat(counters.peakBufferedBytes()).isZero();

        // With whole routes off the same batches are copied into bucket buffers.
        final ShuffleOperator never = operator(LONGS, f, ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.NEVER);
        final List<Batch> copied = collect(never, inputs);
        assertThat(copied).allMatch(Batch::isPooled);
        assertThat(never.counters().wholeBatchRoutes()).isZero();
        assertThat(never.counters().splitBatches()).isEqualTo(inputs.size());
    }

    @Test
    void aSortedBatchIsRoutedByItsEndsUnlessItsKeyHasNulls() {
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, new long[] {1000});
        final ShuffleOperator operator = operator(LONGS, f, ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.WHEN_PROVEN);
        operator.addInput(longs(2000, 100).withSortedBy(0));
        assertThat(operator.getOutput().isPooled()).isFalse();
        final long[] nulls = new long[NullMask.words(100)];
        NullMask.setNull(nulls, 0);
        final Batch withNull = longs(2000, 100);
        operator.addInput(new Batch(new ColumnVector[] {new LongVector(ColumnType.INT64, sequence(2000, 100).values(), 100,
                nulls), withNull.column(1), withNull.column(2), withNull.column(3)}, null, 0));
        assertThat(operator.getOutput()).isNull();
        assertThat(operator.counters().wholeBatchRoutes()).isEqualTo(1);
        assertThat(operator.counters().splitBatches()).isEqualTo(1);
    }

    @Test
    void aSortedBatchAcrossABoundaryIsSplitIntoRunsAndAFalseClaimStillSplitsRight() {
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, new long[] {100, 200});
        final ShuffleOperator operator = operator(LONGS, f, ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.WHEN_PROVEN);
        final List<String> seen = new ArrayList<>();
        final BatchHandler record = b -> {
            for (int r = 0; r < b.rowCount(); r++) {
                seen.add(b.shuffleIdx() + ":" + ((LongVector) b.column(0)).get(r) + "/" + ((LongVector) b.column(1)).get(r));
            }
        };
        // Sorted and straddling two boundaries: three runs.
        operator.push(longs(98, 104).withSortedBy(0), record);
        // Claimed sorted, ends in different buckets, but not sorted inside: must not be taken as runs.
        operator.push(Batch.of(LongVector.ofInt64(50, 250, 150, 60, 210), LongVector.ofInt64(1, 2, 3, 4, 5),
                LongVector.ofInt64(0, 0, 0, 0, 0), LongVector.ofInt64(0, 0, 0, 0, 0)).withSortedBy(0), record);
        operator.finish(record);
        final List<String> expected = new ArrayList<>();
        for (long k = 98; k < 100; k++) {
            expected.add("0:" + k + "/" + (980 + k - 98));
        }
        expected.add("0:50/1");
        expected.add("0:60/4");
        for (long k = 100; k < 200; k++) {
            expected.add("1:" + k + "/" + (980 + k - 98));
        }
        expected.add("1:150/3");
        for (long k = 200; k < 202; k++) {
            expected.add("2:" + k + "/" + (980 + k - 98));
        }
        expected.add("2:250/2");
        expected.add("2:210/5");
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(operator.counters().splitBatches()).isEqualTo(2);
    }

    @Test
    void aFullBucketIsEmittedAt8192RowsAndEmptyBucketsEmitNothing() {
        final ShuffleOperator operator = operator(LONGS, new RangeBucketFunction(TypeKind.INT64, new long[] {0, 1 << 30}),
                ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.NEVER);
        operator.addInput(longs(1, 5000));
        assertThat(operator.getOutput()).isNull();
        operator.addInput(longs(5001, 5000));
        final Batch full = operator.getOutput();
        assertThat(full.rowCount()).isEqualTo(8192);
        assertThat(full.shuffleIdx()).isEqualTo(1);
        assertThat(((LongVector) full.column(0)).get(8191)).isEqualTo(8192);
        full.release();
        assertThat(operator.getOutput()).isNull();
        operator.finish();
        final Batch rest = operator.getOutput();
        assertThat(rest.rowCount()).isEqualTo(10_000 - 8192);
        assertThat(((LongVector) rest.column(0)).get(0)).isEqualTo(8193);
        rest.release();
        assertThat(operator.getOutput()).isNull();
        assertThat(operator.isFinished()).isTrue();
        assertThat(operator.counters().batchesOut()).isEqualTo(2);
    }

    @Test
    void anExhaustedPoolHoldsTheProducerBackUntilBatchesAreReleased() {
        final long budget = ShuffleOperator.minimumPoolBytes(LONGS);
        final ShuffleOperator operator = operator(LONGS, new HashBucketFunction(2, TypeKind.INT64), budget,
                WholeBatchRouting.NEVER);
        operator.addInput(longs(0, 1000));
        // One buffer for two buckets: the first bucket's rows went in, the fullest partial went out early.
        assertThat(operator.needsInput()).isFalse();
        final Batch first = operator.getOutput();
        assertThat(first).isNotNull();
        assertThat(first.isPooled()).isTrue();
        // Held: the operator waits, it neither allocates nor drops rows.
        assertThat(operator.getOutput()).isNull();
        assertThat(operator.isBlocked()).isTrue();
        assertThat(operator.needsInput()).isFalse();
        assertThatThrownBy(() -> operator.addInput(longs(0, 1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needsInput");
        first.release();
        assertThatThrownBy(first::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("already released");
        long rows = first.rowCount();
        operator.finish();
        while (!operator.isFinished()) {
            final Batch b = operator.getOutput();
            if (b != null) {
                rows += b.rowCount();
                b.release();
            }
        }
        assertThat(rows).isEqualTo(1000);
        final ShuffleCounters counters = operator.counters();
        assertThat(counters.earlyFlushes()).isGreaterThanOrEqualTo(1);
        assertThat(counters.peakBufferedBytes()).isEqualTo(budget);
    }

    @Test
    void pushRefusesToWaitForBatchesOnlyItsCallerCanRelease() {
        final ShuffleOperator operator = operator(LONGS, new HashBucketFunction(2, TypeKind.INT64),
                ShuffleOperator.minimumPoolBytes(LONGS), WholeBatchRouting.NEVER);
        operator.addInput(longs(0, 1000));
        final Batch held = operator.getOutput();
        assertThat(held).isNotNull();
        assertThatThrownBy(() -> operator.finish(b -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not released");
        held.release();
        assertThat(operator.finish(b -> { }).rowsOut()).isEqualTo(1000);
    }

    @Test
    void dictionaryStringsAreExpandedIntoPlainBatches() {
        final Schema schema = Schema.parse("k:int64,s:string");
        final StringVector dictionary = StringVector.of("red", "green", "blue");
        final StringVector codes = StringVector.dictionary(new int[] {2, 0, 1, 0}, dictionary, 4, null);
        final ShuffleOperator operator = new ShuffleOperator(schema, 0,
                new RangeBucketFunction(TypeKind.INT64, new long[] {2}));
        final List<String> seen = new ArrayList<>();
        operator.push(Batch.of(LongVector.ofInt64(1, 2, 3, 1), codes), b -> { });
        operator.finish(b -> {
            final StringVector s = (StringVector) b.column(1);
            assertThat(s.isDictionary()).isFalse();
            for (int r = 0; r < b.rowCount(); r++) {
                seen.add(b.shuffleIdx() + ":" + s.getString(r));
            }
        });
        assertThat(seen).containsExactly("0:blue", "0:red", "1:red", "1:green");
    }

    @Test
    void aRowLargerThanThePoolIsAClearError() {
        final Schema schema = Schema.parse("k:int64,s:string");
        final long budget = ShuffleOperator.minimumPoolBytes(schema);
        final ShuffleOperator operator = new ShuffleOperator(schema, new int[] {0},
                new RangeBucketFunction(TypeKind.INT64, new long[] {2}),
                new ShuffleOptions(budget, WholeBatchRouting.WHEN_PROVEN));
        final String huge = "x".repeat((int) budget); // keys 1 and 2 are in two buckets: the batch must be split
        assertThatThrownBy(() -> operator.push(Batch.of(LongVector.ofInt64(1, 2), StringVector.of("small", huge)), b -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("raise poolBytes");
    }

    @Test
    void aBucketWhoseStringsOutgrowThePoolTakesWhatFitsAndGoesOn() {
        // One bucket, ten rows of 20 KiB each, larger than a buffer's first 16 KiB of string bytes; the
        // pool has room to grow for two of them, not for all ten.
        final Schema schema = Schema.parse("k:int64,s:string");
        final long budget = ShuffleOperator.minimumPoolBytes(schema) + 28 * 1024;
        final ShuffleOperator operator = new ShuffleOperator(schema, new int[] {0},
                new RangeBucketFunction(TypeKind.INT64, new long[] {1000}), new ShuffleOptions(budget, WholeBatchRouting.NEVER));
        final String[] values = new String[10];
        final long[] keys = new long[10];
        for (int i = 0; i < values.length; i++) {
            values[i] = Integer.toString(i).repeat(20 * 1024).substring(0, 20 * 1024);
            keys[i] = i;
        }
        final List<String> seen = new ArrayList<>();
        operator.push(Batch.of(LongVector.ofInt64(keys), StringVector.of(values)), b -> {
            for (int r = 0; r < b.rowCount(); r++) {
                seen.add(((StringVector) b.column(1)).getString(r));
            }
        });
        final ShuffleCounters counters = operator.finish(b -> {
            for (int r = 0; r < b.rowCount(); r++) {
                seen.add(((StringVector) b.column(1)).getString(r));
            }
        });
        assertThat(seen).containsExactly(values);
        assertThat(counters.earlyFlushes()).isPositive();
        assertThat(counters.peakBufferedBytes()).isLessThanOrEqualTo(budget);
    }

    @Test
    void badInputIsRefusedWithTheValueAndTheRule() {
        assertThatThrownBy(() -> Batch.of(sequence(0, 9000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9000").hasMessageContaining("8192");
        assertThatThrownBy(() -> Batch.of(sequence(0, 10), sequence(0, 11))).hasMessageContaining("11 rows");
        assertThatThrownBy(() -> new Batch(new ColumnVector[] {sequence(0, 10)},
                new ZoneMap[] {ZoneMap.of(sequence(0, 20))}, Batch.NOT_SORTED))
                .hasMessageContaining("describes 20 rows").hasMessageContaining("has 10");
        assertThatThrownBy(() -> Batch.of(sequence(0, 10)).withSortedBy(3)).hasMessageContaining("sorted-by column 3");
        assertThatThrownBy(() -> new Batch(new ColumnVector[] {sequence(0, 10)},
                new ZoneMap[] {new ZoneMap(9, 0, 0, 10)}, Batch.NOT_SORTED)).hasMessageContaining("min 9 above max 0");

        final RangeBucketFunction range = new RangeBucketFunction(TypeKind.INT64, new long[] {100});
        assertThatThrownBy(() -> new ShuffleOperator(LONGS, 4, range))
                .hasMessageContaining("key column 4 is out of range").hasMessageContaining("4 columns");
        assertThatThrownBy(() -> new ShuffleOperator(Schema.parse("k:string"), 0, range))
                .hasMessageContaining("k:string").hasMessageContaining("INT64");
        assertThatThrownBy(() -> new ShuffleOperator(LONGS, new int[] {0}, range, new ShuffleOptions(1000, WholeBatchRouting.NEVER)))
                .hasMessageContaining("1000 bytes").hasMessageContaining("raise poolBytes to at least");
        assertThatThrownBy(() -> new ShuffleOperator(LONGS, new int[] {0, 1}, new HashBucketFunction(4, TypeKind.INT64, TypeKind.INT64),
                ShuffleOptions.defaults().withRouting(WholeBatchRouting.REQUIRED))).hasMessageContaining("single key column");

        final ShuffleOperator operator = new ShuffleOperator(LONGS, 0, range);
        assertThatThrownBy(() -> operator.addInput(Batch.of(sequence(0, 5))))
                .hasMessageContaining("1 columns").hasMessageContaining("has 4");
        assertThatThrownBy(() -> operator.addInput(Batch.of(sequence(0, 5), sequence(0, 5), sequence(0, 5),
                new LongVector(ColumnType.decimal(15, 2), new long[5], 5, null))))
                .hasMessageContaining("column 3").hasMessageContaining("decimal(15,2)").hasMessageContaining("c:int64");
        assertThatThrownBy(() -> operator.addInput(Batch.of(LongVector.ofInt64(9, 1), sequence(0, 2), sequence(0, 2),
                sequence(0, 2)).withSortedBy(0))).hasMessageContaining("first key 9 is above its last key 1");
        operator.finish();
        assertThatThrownBy(() -> operator.addInput(longs(0, 5))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after finish");
    }

    @Test
    void requiredWholeRoutingRefusesBatchesItCannotPlace() {
        final ShuffleOperator operator = operator(LONGS, new RangeBucketFunction(TypeKind.INT64, new long[] {100}),
                ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.REQUIRED);
        assertThatThrownBy(() -> operator.addInput(longs(0, 10)))
                .hasMessageContaining("REQUIRED").hasMessageContaining("no zonemap").hasMessageContaining("k:int64");
        final Batch spanning = longs(95, 10);
        assertThatThrownBy(() -> operator.addInput(Batch.of(Block.of(spanning.column(0), spanning.column(1),
                spanning.column(2), spanning.column(3))))).hasMessageContaining("spans buckets").hasMessageContaining("min=95");
        final Batch inside = longs(100, 10);
        operator.addInput(Batch.of(Block.of(inside.column(0), inside.column(1), inside.column(2), inside.column(3))));
        assertThat(operator.getOutput().shuffleIdx()).isEqualTo(1);
    }

    @Test
    void theSplitPathAllocatesNoMemoryPerRowInSteadyState() {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final ShuffleOperator operator = operator(LONGS, new RangeBucketFunction(TypeKind.INT64, new long[] {2000, 4000, 6000}),
                ShuffleOptions.DEFAULT_POOL_BYTES, WholeBatchRouting.NEVER);
        final Batch[] input = new Batch[8];
        for (int i = 0; i < input.length; i++) {
            input[i] = longs(i * 1000L, 8192);
        }
        final BatchHandler handler = b -> { };
        for (int round = 0; round < 50; round++) {
            operator.push(input[round % input.length], handler);
        }
        final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        final int rounds = 400;
        for (int round = 0; round < rounds; round++) {
            operator.push(input[round % input.length], handler);
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        // Only a few small objects per emitted batch (the vectors over the buffer's arrays), no array per batch.
        assertThat((double) allocated / (rounds * 8192L)).as("bytes allocated per row").isLessThan(0.5);
    }
}
