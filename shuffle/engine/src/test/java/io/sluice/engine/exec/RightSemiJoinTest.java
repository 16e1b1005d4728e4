package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Right semi and anti joins (the probe marks build rows, the build rows come out) against SQL's
 * {@code [NOT] EXISTS} applied to the same rows in plain Java: a build row comes out of a right semi
 * join when some probe row has an equal key (NULL equals nothing) and, when there is one, satisfies
 * the extra condition; out of a right anti join when none does. Broadcast (one table every worker
 * marks) and partitioned (each bucket's table, its rows tagged with the bucket), any number of
 * workers, duplicate keys within and across batches, empty sides.
 */
class RightSemiJoinTest {
    private static final RowType PROBE = new RowType(List.of("pk", "ps", "pid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final RowType BUILD = new RowType(List.of("bk", "bs", "bid"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64));
    private static final int BUCKETS = 3;
    private static final long SPREAD = 1_000_000_007L;

    private static List<Object[]> rows(final Random random, final int n, final double nulls, final long spread,
                                       final long firstId) {
        return RowsWithNulls.joinRows(random, n, nulls, spread, firstId, 6);
    }

    @Property(tries = 300)
    void buildRowsComeOutAsExistsOverTheProbeRowsSays(@ForAll final long seed, @ForAll final boolean anti,
                                                      @ForAll final boolean withCondition,
                                                      @ForAll final boolean partitioned, @ForAll final boolean sparse) {
        final Random random = new Random(seed);
        final double[] nullShares = {0, 0.2, 1};
        final long spread = sparse ? SPREAD : 1;
        final List<Object[]> probe = rows(random, new int[] {0, 1, 40, 9000}[random.nextInt(4)],
                nullShares[random.nextInt(3)], spread, 0);
        final List<Object[]> build = rows(random, new int[] {0, 1, 7, 300}[random.nextInt(4)],
                nullShares[random.nextInt(3)], spread, 10_000);
        final Expr condition = withCondition ? Expr.ne(col("ps"), col("bs")) : null;
        final JoinType type = anti ? JoinType.RIGHT_ANTI : JoinType.RIGHT_SEMI;
        final List<Batch> out = join(probe, build, type, condition, partitioned, random);
        final List<List<Object>> actual = new ArrayList<>();
        for (final Batch b : out) {
            actual.addAll(new QueryResult(BUILD, List.of(b)).rows());
        }
        assertThat(RowsWithNulls.multiset(actual)).isEqualTo(RowsWithNulls.multiset(reference(probe, build, anti,
                withCondition)));
    }

    @Test
    void aPartitionedBuildsRowsComeOutTaggedWithTheirBucket() {
        final Random random = new Random(11);
        final List<Object[]> probe = rows(random, 5000, 0.1, 1, 0);
        final List<Object[]> build = rows(random, 400, 0.1, 1, 10_000);
        for (final JoinType type : List.of(JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI)) {
            final List<Batch> out = join(probe, build, type, null, true, new Random(5));
            assertThat(out).isNotEmpty();
            final BucketFunction function = new RangeBucketFunction(TypeKind.INT64, new long[] {1, 3});
            for (final Batch b : out) {
                final int[] bucketOf = new int[b.rowCount()];
                function.buckets(new io.sluice.format.ColumnVector[] {b.column(0)}, b.rowCount(), bucketOf);
                assertThat(Arrays.stream(bucketOf).distinct().toArray())
                        .as("buckets of the keys of a batch tagged %d", b.shuffleIdx()).containsExactly(b.shuffleIdx());
            }
        }
    }

    @Test
    void onlyRightJoinsMarkBuildRows() {
        final HashJoinBuild build = new HashJoinBuild(BUILD, List.of(col("bk")));
        assertThatThrownBy(() -> new BuildRowMarks(PROBE, List.of(col("pk")), build, JoinType.SEMI, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("right semi or anti join");
    }

    /** The build rows the join emits, as batches (tagged with their bucket when partitioned). */
    private static List<Batch> join(final List<Object[]> probeRows, final List<Object[]> buildRows,
                                    final JoinType type, final Expr condition, final boolean partitioned,
                                    final Random random) {
        final List<Batch> builds = RowsWithNulls.batches(BUILD, buildRows, random);
        final List<Batch> probes = RowsWithNulls.batches(PROBE, probeRows, random);
        final Sink<?> sink;
        final JoinBuild build;
        final List<Batch> buildInput;
        final List<Batch> probeInput;
        if (partitioned) {
            final PartitionedHashJoinBuild p = new PartitionedHashJoinBuild(BUILD, List.of(col("bk")), BUCKETS);
            sink = p;
            build = p;
            final BucketFunction function = random.nextBoolean() || probeRows.size() > 1000
                    ? new RangeBucketFunction(TypeKind.INT64, new long[] {1, 3})
                    : new HashBucketFunction(BUCKETS, new TypeKind[] {TypeKind.INT64});
            buildInput = RowsWithNulls.oneBatchPerBucket(RowsWithNulls.bucketed(builds, new int[] {0}, function), BUILD,
                    BUCKETS);
            probeInput = RowsWithNulls.bucketed(probes, new int[] {0}, function);
        } else {
            final HashJoinBuild h = new HashJoinBuild(BUILD, List.of(col("bk")));
            sink = h;
            build = h;
            buildInput = builds;
            probeInput = probes;
        }
        final Pipeline b = new Pipeline("build", new MaterializedSource(BUILD, () -> buildInput, false),
                List.of(), sink, List.of());
        final BuildRowMarks marks = new BuildRowMarks(PROBE, List.of(col("pk")), build, type, condition);
        final Pipeline p = new Pipeline("probe", new MaterializedSource(PROBE, () -> probeInput, false), List.of(),
                marks, List.of(b));
        final ResultCollector collect = new ResultCollector(BUILD);
        try (PipelineExecutor executor = new PipelineExecutor(1 + random.nextInt(3))) {
            executor.run(List.of(b, p, new Pipeline("rows", marks.output(), List.of(), collect, List.of(p))));
        }
        return collect.batches();
    }

    private static List<List<Object>> reference(final List<Object[]> probe, final List<Object[]> build,
                                                final boolean anti, final boolean withCondition) {
        final List<List<Object>> out = new ArrayList<>();
        for (final Object[] b : build) {
            boolean matched = false;
            for (final Object[] p : probe) {
                final boolean equal = p[0] != null && b[0] != null && Objects.equals(p[0], b[0]);
                final boolean holds = !withCondition || p[1] != null && b[1] != null && !p[1].equals(b[1]);
                matched |= equal && holds;
            }
            if (matched != anti) {
                out.add(Arrays.asList(b));
            }
        }
        return out;
    }
}
