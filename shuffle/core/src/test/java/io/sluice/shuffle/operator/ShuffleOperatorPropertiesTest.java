package io.sluice.shuffle.operator;

import static io.sluice.shuffle.operator.TestBatches.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties of the shuffle operator over random batches (every column kind, nulls, dictionary
 * strings, sorted and zonemapped batches), random cut points or hashing, random pool sizes and
 * both ways of driving it. Expected buckets and whole-batch routes come from reference
 * implementations in {@link TestBatches}, not from the code under test.
 */
class ShuffleOperatorPropertiesTest {

    /** How big the pool is, relative to one bucket buffer. */
    enum PoolSize { ONE_BUFFER, TWO_BUFFERS, FIVE_BUFFERS, AMPLE }

    /** How the test drives the operator. */
    enum Driver { PUSH, PULL_RELEASE_AT_ONCE, PULL_HOLD_SOME }

    /** The independent description of a shuffle, used to compute expectations. */
    record Plan(int keyColumn, boolean hash, long[] cuts, BucketFunction function) {
        int referenceBucket(final Object keyValue) {
            return hash ? TestBatches.referenceHash((HashBucketFunction) function, keyValue)
                    : TestBatches.referenceRange(keyColumn == TestBatches.S, cuts, keyValue);
        }

        /** Whether the rule says this batch goes whole: its zonemap (or sorted ends) lies in one bucket. */
        boolean provablyWhole(final Batch batch) {
            ZoneMap zm = batch.zoneMap(keyColumn);
            final ColumnVector key = batch.column(keyColumn);
            if (zm == null && batch.sortedBy() == keyColumn && key.nullCount() == 0) {
                zm = new ZoneMap(keyOfRow(key, 0), keyOfRow(key, batch.rowCount() - 1), 0, batch.rowCount());
            }
            if (zm == null) {
                return false;
            }
            if (!zm.hasValues()) {
                return true;
            }
            if (hash) {
                return keyColumn != TestBatches.S && zm.min() == zm.max() && zm.nullCount() == 0;
            }
            final boolean unsigned = keyColumn == TestBatches.S;
            final int low = bucketOfKey(unsigned, zm.min());
            return low == bucketOfKey(unsigned, zm.max()) && (zm.nullCount() == 0 || low == 0);
        }

        private int bucketOfKey(final boolean unsigned, final long key) {
            int bucket = 0;
            for (final long cut : cuts) {
                if (unsigned ? Long.compareUnsigned(cut, key) <= 0 : cut <= key) {
                    bucket++;
                }
            }
            return bucket;
        }

        private static long keyOfRow(final ColumnVector vector, final int row) {
            return TestBatches.keyOf(TestBatches.value(vector, row));
        }
    }

    /** Whether every row of a batch has the same reference bucket. */
    private static boolean oneReferenceBucket(final Plan plan, final Batch batch, final int keyColumn) {
        final int first = plan.referenceBucket(TestBatches.row(batch, 0).get(keyColumn));
        for (int r = 1; r < batch.rowCount(); r++) {
            if (plan.referenceBucket(TestBatches.row(batch, r).get(keyColumn)) != first) {
                return false;
            }
        }
        return true;
    }

    @Provide
    Arbitrary<Integer> keyColumns() {
        return Arbitraries.of(TestBatches.K, TestBatches.I, TestBatches.DT, TestBatches.S);
    }

    @Provide
    Arbitrary<WholeBatchRouting> routings() {
        return Arbitraries.of(WholeBatchRouting.WHEN_PROVEN, WholeBatchRouting.NEVER);
    }

    static Plan plan(final Random random, final int keyColumn, final boolean hash, final int bucketCount) {
        if (hash) {
            return new Plan(keyColumn, true, null,
                    new HashBucketFunction(bucketCount, SCHEMA.type(keyColumn).kind()));
        }
        final long[] cuts = TestBatches.cuts(random, keyColumn, bucketCount);
        return new Plan(keyColumn, false, cuts, new RangeBucketFunction(SCHEMA.type(keyColumn).kind(), cuts));
    }

    static long budget(final PoolSize size) {
        final long one = ShuffleOperator.minimumPoolBytes(SCHEMA);
        return switch (size) {
            case ONE_BUFFER -> one;
            case TWO_BUFFERS -> 2 * one;
            case FIVE_BUFFERS -> 5 * one;
            case AMPLE -> 256L << 20;
        };
    }

    /** What came out of one run: rows copied while the batches were valid. */
    record Emitted(int shuffleIdx, boolean pooled, boolean sharesInputColumns, List<List<Object>> rows) {
    }

    @Property(tries = 60)
    void outputIsTheInputRegroupedByBucket(@ForAll final long seed,
                                           @ForAll("keyColumns") final int keyColumn,
                                           @ForAll final boolean hash,
                                           @ForAll @IntRange(min = 1, max = 70) final int bucketCount,
                                           @ForAll("routings") final WholeBatchRouting routing,
                                           @ForAll final PoolSize poolSize,
                                           @ForAll final Driver driver) {
        final Random random = new Random(seed);
        final Plan plan = plan(random, keyColumn, hash, bucketCount);
        final List<Batch> input = TestBatches.batches(random, keyColumn, 1 + random.nextInt(6));
        final ShuffleOptions options = new ShuffleOptions(budget(poolSize), routing);
        final List<Emitted> out = new ArrayList<>();
        final ShuffleCounters counters = drive(driver, random, plan, options, input, out);

        // The output is the input as a multiset.
        final List<List<Object>> outRows = new ArrayList<>();
        for (final Emitted e : out) {
            outRows.addAll(e.rows());
        }
        assertThat(TestBatches.multiset(outRows)).isEqualTo(TestBatches.multiset(TestBatches.rows(input)));

        // Every batch is non-empty, at most 8192 rows, and holds only rows of its bucket.
        final long[] perBucket = new long[plan.function().bucketCount()];
        for (final Emitted e : out) {
            assertThat(e.rows()).hasSizeBetween(1, Block.MAX_ROWS);
            assertThat(e.shuffleIdx()).isBetween(0, plan.function().bucketCount() - 1);
            for (final List<Object> row : e.rows()) {
                assertThat(plan.referenceBucket(row.get(keyColumn))).as("bucket of %s", row).isEqualTo(e.shuffleIdx());
            }
            perBucket[e.shuffleIdx()] += e.rows().size();
        }

        // Whole-batch routes happen exactly when the zonemap (or sorted ends) lie in one bucket, or, failing
        // that, when every row's reference bucket is the same; never with routing NEVER.
        long expectedWhole = 0;
        long expectedAfterBucketing = 0;
        long nonEmpty = 0;
        long rows = 0;
        for (final Batch b : input) {
            rows += b.rowCount();
            if (b.rowCount() > 0 && routing == WholeBatchRouting.WHEN_PROVEN) {
                if (plan.provablyWhole(b)) {
                    expectedWhole++;
                } else if (oneReferenceBucket(plan, b, keyColumn)) {
                    expectedWhole++;
                    expectedAfterBucketing++;
                }
            }
            if (b.rowCount() > 0) {
                nonEmpty++;
            }
        }
        assertThat(counters.wholeBatchRoutes()).isEqualTo(expectedWhole);
        assertThat(counters.wholeAfterBucketing()).isEqualTo(expectedAfterBucketing);
        assertThat(counters.splitBatches()).isEqualTo(nonEmpty - expectedWhole);
        assertThat(out.stream().filter(Emitted::sharesInputColumns).count()).isEqualTo(expectedWhole);
        assertThat(out.stream().filter(e -> !e.pooled()).count()).isEqualTo(expectedWhole);
        assertThat(counters.batchesIn()).isEqualTo(input.size());
        assertThat(counters.rowsIn()).isEqualTo(rows);
        assertThat(counters.rowsOut()).isEqualTo(rows);
        assertThat(counters.batchesOut()).isEqualTo(out.size());
        assertThat(counters.rowsPerBucket()).containsExactly(perBucket);
        assertThat(counters.peakBufferedBytes()).isLessThanOrEqualTo(options.poolBytes());

        // With room for every bucket, only the last batch of a bucket may be short.
        if (poolSize == PoolSize.AMPLE && driver != Driver.PULL_HOLD_SOME) {
            assertThat(counters.earlyFlushes()).isZero();
            final int[] shortSeen = new int[plan.function().bucketCount()];
            for (final Emitted e : out) {
                if (e.pooled()) {
                    assertThat(shortSeen[e.shuffleIdx()]).as("a batch after a short one in bucket %d", e.shuffleIdx())
                            .isZero();
                    if (e.rows().size() < Block.MAX_ROWS) {
                        shortSeen[e.shuffleIdx()]++;
                    }
                }
            }
        }
    }

    @Property(tries = 25)
    void aTinyPoolGivesTheSameRowsPerBucketAsAnAmpleOne(@ForAll final long seed,
                                                         @ForAll("keyColumns") final int keyColumn,
                                                         @ForAll @IntRange(min = 2, max = 40) final int bucketCount) {
        final Random random = new Random(seed);
        final Plan plan = plan(random, keyColumn, random.nextBoolean(), bucketCount);
        final List<Batch> input = TestBatches.batches(random, keyColumn, 2 + random.nextInt(4));
        final List<Emitted> tiny = new ArrayList<>();
        final List<Emitted> ample = new ArrayList<>();
        final ShuffleCounters tinyCounters = drive(Driver.PUSH, random, plan,
                new ShuffleOptions(budget(PoolSize.ONE_BUFFER), WholeBatchRouting.WHEN_PROVEN), input, tiny);
        drive(Driver.PUSH, random, plan, new ShuffleOptions(budget(PoolSize.AMPLE), WholeBatchRouting.WHEN_PROVEN),
                input, ample);
        for (int b = 0; b < bucketCount; b++) {
            assertThat(TestBatches.multiset(rowsOf(tiny, b))).as("bucket %d", b)
                    .isEqualTo(TestBatches.multiset(rowsOf(ample, b)));
        }
        assertThat(tinyCounters.peakBufferedBytes()).isLessThanOrEqualTo(budget(PoolSize.ONE_BUFFER));
    }

    @Provide
    Arbitrary<Integer> splitBucketCounts() {
        return Arbitraries.of(1, 2, 6, 63, 64, 65, 200);
    }

    /**
     * The columnar split keeps the input order inside a bucket: the rows a bucket's pooled batches
     * give, one after another, are the rows of that bucket in the batches that were split, in input
     * order. Forces the split's edges: 64 buckets (the most grouped into lists) and 65 (counting
     * sort), batches of 0, 1 and 8192 rows, one key value for a whole batch, null keys, and more rows
     * of one bucket than its partly filled buffer has room for.
     */
    @Property(tries = 40)
    void aBucketsRowsComeOutInInputOrder(@ForAll final long seed,
                                         @ForAll("keyColumns") final int keyColumn,
                                         @ForAll final boolean hash,
                                         @ForAll("splitBucketCounts") final int bucketCount,
                                         @ForAll("routings") final WholeBatchRouting routing,
                                         @ForAll final Driver driver) {
        final Random random = new Random(seed);
        final Plan plan = plan(random, keyColumn, hash, bucketCount);
        final List<Batch> input = TestBatches.batches(random, keyColumn, 2 + random.nextInt(5));
        // A full batch of one key value after the others: its bucket's buffer is partly filled already.
        final Batch full = TestBatches.batch(random, keyColumn, Block.MAX_ROWS, TestBatches.KeyShape.CONSTANT);
        input.add(random.nextBoolean() ? full : Batch.of(columnsOf(full)));
        final List<Emitted> out = new ArrayList<>();
        drive(driver, random, plan, new ShuffleOptions(budget(PoolSize.AMPLE), routing), input, out);

        final List<List<List<Object>>> expected = new ArrayList<>();
        final List<List<List<Object>>> actual = new ArrayList<>();
        for (int b = 0; b < bucketCount; b++) {
            expected.add(new ArrayList<>());
            actual.add(new ArrayList<>());
        }
        for (final Batch batch : input) {
            final boolean whole = batch.rowCount() > 0 && routing == WholeBatchRouting.WHEN_PROVEN
                    && (plan.provablyWhole(batch) || oneReferenceBucket(plan, batch, keyColumn));
            if (!whole) {
                for (int r = 0; r < batch.rowCount(); r++) {
                    final List<Object> row = TestBatches.row(batch, r);
                    expected.get(plan.referenceBucket(row.get(keyColumn))).add(row);
                }
            }
        }
        for (final Emitted e : out) {
            if (e.pooled()) {
                actual.get(e.shuffleIdx()).addAll(e.rows());
            }
        }
        for (int b = 0; b < bucketCount; b++) {
            assertThat(actual.get(b)).as("rows of bucket %d of %d, in order", b, bucketCount).isEqualTo(expected.get(b));
        }
    }

    private static ColumnVector[] columnsOf(final Batch batch) {
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = batch.column(c);
        }
        return columns;
    }

    private static List<List<Object>> rowsOf(final List<Emitted> out, final int bucket) {
        final List<List<Object>> rows = new ArrayList<>();
        for (final Emitted e : out) {
            if (e.shuffleIdx() == bucket) {
                rows.addAll(e.rows());
            }
        }
        return rows;
    }

    static ShuffleCounters drive(final Driver driver, final Random random, final Plan plan, final ShuffleOptions options,
                                 final List<Batch> input, final List<Emitted> out) {
        final int[] keys = {plan.keyColumn()};
        if (driver == Driver.PUSH) {
            return ShuffleOperator.run(SCHEMA, keys, plan.function(), options, input, b -> out.add(record(b, input)));
        }
        final ShuffleOperator operator = new ShuffleOperator(SCHEMA, keys, plan.function(), options);
        final int maxHeld = driver == Driver.PULL_HOLD_SOME ? 1 + random.nextInt(3) : 0;
        final ArrayDeque<Batch> held = new ArrayDeque<>();
        for (final Batch batch : input) {
            while (!operator.needsInput()) {
                take(operator, held, maxHeld, input, out);
            }
            operator.addInput(batch);
        }
        operator.finish();
        while (!operator.isFinished()) {
            take(operator, held, maxHeld, input, out);
        }
        assertThat(operator.getOutput()).isNull();
        while (!held.isEmpty()) {
            held.pollFirst().release();
        }
        return operator.counters();
    }

    /** One step of a pull consumer that keeps up to {@code maxHeld} batches before releasing them. */
    private static void take(final ShuffleOperator operator, final ArrayDeque<Batch> held, final int maxHeld,
                             final List<Batch> input, final List<Emitted> out) {
        final Batch batch = operator.getOutput();
        if (batch == null) {
            if (operator.needsInput() || operator.isFinished()) {
                return; // the pending batch went into buffers without filling one
            }
            assertThat(operator.isBlocked()).as("no output, no input wanted, yet not blocked").isTrue();
            if (held.isEmpty()) {
                fail("deadlock: the operator is blocked but the consumer holds no batch to release");
            }
            held.pollFirst().release();
            return;
        }
        out.add(record(batch, input));
        held.addLast(batch);
        while (held.size() > maxHeld) {
            held.pollFirst().release();
        }
    }

    private static Emitted record(final Batch batch, final List<Batch> input) {
        final List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < batch.rowCount(); r++) {
            rows.add(TestBatches.row(batch, r));
        }
        boolean shares = false;
        for (final Batch in : input) {
            shares |= in.rowCount() > 0 && in.column(0) == batch.column(0);
        }
        return new Emitted(batch.shuffleIdx(), batch.isPooled(), shares, rows);
    }
}
