package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillSpace;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.operator.Batch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A hash join whose build is past the query's memory budget with spilling on (a grace hash join: build
 * partitions on disk, the probe's rows of them too, joined partition by partition at the end of the
 * probe's input, split again when still too big) outputs the rows of the same join in memory, for every
 * join type, broadcast and partitioned, with NULL and duplicate keys; its files are gone once the query's
 * memory closes, after a cancel too. With spilling off it fails with the named error, and a key too heavy to split names the
 * operator, the budget and the setting.
 */
class SpillJoinTest {
    private static final RowType PROBE = new RowType(List.of("pk", "ps", "pid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final RowType BUILD = new RowType(List.of("bk", "bs", "bid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final int BUCKETS = 3;

    /** The join keys: one integer of a small range (looked up by value), one spread wide (hashed), a string, both. */
    enum Keys {
        DENSE(1), SPARSE(1_000_000_007L), STRING(1), BOTH(1);

        final long spread;

        Keys(final long spread) {
            this.spread = spread;
        }

        List<Expr> probe() {
            return this == STRING ? List.of(col("ps")) : this == BOTH ? List.of(col("pk"), col("ps")) : List.of(col("pk"));
        }

        List<Expr> build() {
            return this == STRING ? List.of(col("bs")) : this == BOTH ? List.of(col("bk"), col("bs")) : List.of(col("bk"));
        }
    }

    /** A join's output rows and the bytes its build wrote to disk. */
    private record Joined(List<List<Object>> rows, long spilledBytes) {
    }

    @Property(tries = 60)
    void aSpilledJoinEqualsTheOneInMemory(@ForAll @LongRange(max = 1_000_000) final long seed,
                                         @ForAll final JoinType type, @ForAll final Keys keys,
                                         @ForAll final boolean partitioned, @ForAll final boolean withCondition,
                                         @ForAll @IntRange(min = 1, max = 3) final int cores,
                                         @ForAll @IntRange(min = 8, max = 48) final int budgetKib) throws Exception {
        if (type == JoinType.NULL_AWARE_ANTI && (keys == Keys.BOTH || withCondition)) {
            return;
        }
        final Random random = new Random(seed);
        final int distinct = new int[] {400, 5000, 100_000}[random.nextInt(3)];
        final double[] nullShares = {0, 0.1, 0.5};
        final List<Object[]> probeRows = rows(random, random.nextInt(6000), nullShares[random.nextInt(3)],
                keys.spread, distinct, 0);
        final List<Object[]> buildRows = rows(random, new int[] {0, 10, 2000, 6000}[random.nextInt(4)],
                nullShares[random.nextInt(3)], keys.spread, distinct, 1_000_000);
        final List<Batch> builds = RowsWithNulls.batches(BUILD, buildRows, random);
        final List<Batch> probes = RowsWithNulls.batches(PROBE, probeRows, random);
        final Expr condition = withCondition && type != JoinType.NULL_AWARE_ANTI ? Expr.ne(col("ps"), col("bs")) : null;
        final boolean withColumns = condition != null || !type.probeColumnsOnly() || random.nextBoolean();
        final Path root = Files.createTempDirectory("spill-join");
        try {
            final Joined inMemory = join(type, keys, condition, withColumns, partitioned, cores, builds, probes,
                    QueryMemory.unbounded());
            final QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), budgetKib * 1024L,
                    SpillSpace.under(root).query());
            final Joined spilled;
            try {
                spilled = join(type, keys, condition, withColumns, partitioned, cores, builds, probes, memory);
            } finally {
                memory.close();
            }
            assertThat(RowsWithNulls.multiset(spilled.rows())).isEqualTo(RowsWithNulls.multiset(inMemory.rows()));
            long buildBytes = 0;
            for (final Batch b : builds) {
                buildBytes += QueryMemory.bytesOf(b);
            }
            if (buildBytes > budgetKib * 1024L) {
                assertThat(spilled.spilledBytes()).as("a build of %d bytes over %d KiB", buildBytes, budgetKib)
                        .isPositive();
            }
            assertThat(SpillSpace.under(root).folder()).satisfiesAnyOf(
                    f -> assertThat(f).doesNotExist(), f -> assertThat(f).isEmptyDirectory());
        } finally {
            SpillSortTest.removeAll(root);
        }
    }

    @Test
    void withSpillingOffAJoinBuildPastItsBudgetFailsNamingIt() {
        final Random random = new Random(5);
        final List<Batch> builds = RowsWithNulls.batches(BUILD, rows(random, 9000, 0, 1, 100_000, 0), random);
        final List<Batch> probes = RowsWithNulls.batches(PROBE, rows(random, 100, 0, 1, 100_000, 0), random);
        for (final boolean partitioned : new boolean[] {false, true}) {
            try (QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 32 * 1024)) {
                assertThatThrownBy(() -> join(JoinType.INNER, Keys.DENSE, null, true, partitioned, 2, builds, probes,
                        memory)).isInstanceOf(MemoryLimitException.class)
                        .hasMessageContaining("hash join build [bk] holds")
                        .hasMessageContaining("-Dsluice.memory.query.max=SIZE")
                        .hasMessageContaining("spilling to disk is off");
            }
        }
    }

    @Test
    void aKeyTooHeavyToSplitFailsNamingTheOperatorTheBudgetAndTheSetting() throws Exception {
        final Random random = new Random(9);
        // Every build row has key 7: no split of the partition makes it smaller.
        final List<Object[]> heavy = new ArrayList<>();
        for (int i = 0; i < 9000; i++) {
            heavy.add(new Object[] {7L, "s" + (i % 50), (long) i});
        }
        final List<Batch> builds = RowsWithNulls.batches(BUILD, heavy, random);
        final List<Batch> probes = RowsWithNulls.batches(PROBE, rows(random, 500, 0, 1, 10, 0), random);
        final Path root = Files.createTempDirectory("spill-join");
        try (QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 32 * 1024,
                SpillSpace.under(root).query())) {
            assertThatThrownBy(() -> join(JoinType.INNER, Keys.DENSE, null, true, false, 2, builds, probes, memory))
                    .isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("hash join build [bk] cannot fit one partition of its rows in memory")
                    .hasMessageContaining("of 32.0 KiB")
                    .hasMessageContaining("-Dsluice.memory.query.max=SIZE");
        } finally {
            assertThat(SpillSpace.under(root).folder()).satisfiesAnyOf(
                    f -> assertThat(f).doesNotExist(), f -> assertThat(f).isEmptyDirectory());
            SpillSortTest.removeAll(root);
        }
    }

    @Test
    void aJoinCancelledWhileItsPartitionsAreOnDiskLeavesNoSpillFiles() throws Exception {
        final Random random = new Random(13);
        final List<Batch> builds = RowsWithNulls.batches(BUILD, rows(random, 6000, 0.1, 1, 100_000, 0), random);
        final List<Batch> probes = RowsWithNulls.batches(PROBE, rows(random, 6000, 0.1, 1, 100_000, 0), random);
        final Path root = Files.createTempDirectory("spill-join");
        try {
            final QueryMemory memory = QueryMemory.of(new MemoryPool(1L << 30), 16 * 1024,
                    SpillSpace.under(root).query());
            final Cancellation cancellation = new Cancellation();
            final long[] filesWhenCancelled = {-1};
            final OperatorFactory cancelling = new OperatorFactory() {
                @Override
                public RowType outputType() {
                    return PROBE.concat(BUILD);
                }

                @Override
                public Operator create(final BatchConsumer next) {
                    return new Operator(next) {
                        @Override
                        public void accept(final Batch batch) {
                            synchronized (filesWhenCancelled) {
                                if (filesWhenCancelled[0] < 0) {
                                    filesWhenCancelled[0] = memory.spillFiles();
                                }
                            }
                            cancellation.cancel(new IllegalStateException("the client went away"));
                            next.accept(batch);
                        }
                    };
                }
            };
            final HashJoinBuild build = new HashJoinBuild(BUILD, List.of(col("bk"))).memory(
                    memory.operator("hash join build [bk]"));
            final Pipeline b = new Pipeline("build", new MaterializedSource(BUILD, () -> builds, false), List.of(),
                    build, List.of());
            final HashJoinProbe join = new HashJoinProbe(PROBE, List.of(col("pk")), build, JoinType.LEFT, null);
            final Pipeline p = new Pipeline("probe", new MaterializedSource(PROBE, () -> probes, false),
                    List.of(join, cancelling), new ResultCollector(join.outputType()), List.of(b));
            try (PipelineExecutor executor = new PipelineExecutor(2)) {
                assertThatThrownBy(() -> executor.run(List.of(b, p), cancellation))
                        .hasMessageContaining("the client went away");
            } finally {
                memory.close();
            }
            assertThat(filesWhenCancelled[0]).as("spill files made before the cancel").isPositive();
            assertThat(SpillSpace.under(root).folder()).satisfiesAnyOf(
                    f -> assertThat(f).doesNotExist(), f -> assertThat(f).isEmptyDirectory());
        } finally {
            SpillSortTest.removeAll(root);
        }
    }

    /**
     * Rows (k, s, id): k one of {@code distinct} multiples of {@code spread}, s a string of as many values,
     * each NULL with probability {@code nulls}; ids from {@code firstId} up.
     */
    private static List<Object[]> rows(final Random random, final int n, final double nulls, final long spread,
                                       final int distinct, final long firstId) {
        final List<Object[]> rows = new ArrayList<>();
        final int strings = Math.min(distinct, 300);
        for (int i = 0; i < n; i++) {
            final Long k = random.nextDouble() < nulls ? null : random.nextInt(distinct) * spread;
            final String s = random.nextDouble() < nulls ? null : "v" + random.nextInt(strings);
            rows.add(new Object[] {k, s, firstId + i});
        }
        return rows;
    }

    /** Runs the join (the build rows marked, for a right semi or anti join) accounted in {@code memory}. */
    private static Joined join(final JoinType type, final Keys keys, final Expr condition, final boolean withColumns,
                               final boolean partitioned, final int cores, final List<Batch> builds,
                               final List<Batch> probes, final QueryMemory memory) {
        final QueryMemory.Operator account = memory.operator("hash join build " + keys.build());
        final Sink<?> sink;
        final JoinBuild build;
        final Source buildInput;
        final List<Batch> probeInput;
        if (partitioned) {
            final PartitionedHashJoinBuild p = new PartitionedHashJoinBuild(BUILD, keys.build(), BUCKETS, withColumns)
                    .memory(account);
            sink = p;
            build = p;
            final HashBucketFunction function = new HashBucketFunction(BUCKETS, kinds(keys));
            final List<Batch> tagged = RowsWithNulls.bucketed(builds, columns(BUILD, keys.build()), function);
            final List<List<Batch>> byBucket = new ArrayList<>();
            for (int b = 0; b < BUCKETS; b++) {
                final int bucket = b;
                byBucket.add(tagged.stream().filter(t -> t.shuffleIdx() == bucket).toList());
            }
            buildInput = new BucketSource(BUILD, BUCKETS, () -> byBucket);
            probeInput = RowsWithNulls.bucketed(probes, columns(PROBE, keys.probe()), function);
        } else {
            final HashJoinBuild h = new HashJoinBuild(BUILD, keys.build(), withColumns).memory(account);
            sink = h;
            build = h;
            buildInput = new MaterializedSource(BUILD, () -> builds, false);
            probeInput = probes;
        }
        final Pipeline b = new Pipeline("build", buildInput, List.of(), sink, List.of());
        final Source probeSource = new MaterializedSource(PROBE, () -> probeInput, false);
        final List<List<Object>> rows = new ArrayList<>();
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            if (type.buildColumnsOnly()) {
                final BuildRowMarks marks = new BuildRowMarks(PROBE, keys.probe(), build, type, condition);
                final Pipeline p = new Pipeline("probe", probeSource, List.of(), marks, List.of(b));
                final ResultCollector out = new ResultCollector(BUILD);
                executor.run(List.of(b, p, new Pipeline("rows", marks.output(), List.of(), out, List.of(p))));
                for (final Batch batch : out.batches()) {
                    if (partitioned) {
                        assertThat(batch.shuffleIdx()).isBetween(0, BUCKETS - 1);
                    }
                    rows.addAll(new QueryResult(BUILD, List.of(batch)).rows());
                }
            } else {
                final HashJoinProbe join = new HashJoinProbe(PROBE, keys.probe(), build, type, condition);
                final ResultCollector out = new ResultCollector(join.outputType());
                executor.run(List.of(b, new Pipeline("probe", probeSource, List.of(join), out, List.of(b))));
                for (final Batch batch : out.batches()) {
                    if (partitioned) {
                        assertThat(batch.shuffleIdx()).as("a partitioned join's rows keep their bucket")
                                .isBetween(0, BUCKETS - 1);
                    }
                }
                rows.addAll(out.result().rows());
            }
        }
        return new Joined(rows, account.spilledBytes());
    }

    private static TypeKind[] kinds(final Keys keys) {
        final List<Expr> k = keys.build();
        final TypeKind[] kinds = new TypeKind[k.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = BUILD.type(BUILD.indexOf(k.get(i).toString())).storage().kind();
        }
        return kinds;
    }

    private static int[] columns(final RowType type, final List<Expr> keys) {
        final int[] columns = new int[keys.size()];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = type.indexOf(keys.get(k).toString());
        }
        return columns;
    }
}
