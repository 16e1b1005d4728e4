package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Operators over in-memory batches, run by the executor with several workers. */
class ExecutionTest {
    private static final RowType KV = new RowType(List.of("k", "v"), List.of(DataType.INT64, DataType.decimal(2)));

    private static Source batches(final List<Batch> batches) {
        return new MaterializedSource(KV, () -> batches, false);
    }

    private static Batch kv(final long[] k, final long[] v) {
        return Batch.of(new LongVector(ColumnType.INT64, k, k.length, null),
                new LongVector(ColumnType.decimal(15, 2), v, v.length, null));
    }

    private static void run(final int cores, final Pipeline... pipelines) {
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            executor.run(List.of(pipelines));
        }
    }

    @Test
    void sumAccumulatesBeyondSixtyFourBitsAndOutputsTheExactSumAndAverage() {
        final List<Batch> input = new ArrayList<>();
        final long big = Long.MAX_VALUE / 4;
        for (int b = 0; b < 16; b++) {
            input.add(kv(new long[] {1, 1, 2}, new long[] {big, big, -big}));
        }
        final HashAggregate agg = new HashAggregate(KV, List.of(NamedExpr.column("k")),
                List.of(new Aggregate(AggregateFunction.AVG, col("v"), "a"),
                        new Aggregate(AggregateFunction.COUNT_STAR, null, "n"),
                        new Aggregate(AggregateFunction.MIN, col("v"), "lo")));
        final ResultCollector out = new ResultCollector(agg.outputType());
        final Pipeline first = new Pipeline("agg", batches(input), List.of(), agg, List.of());
        run(4, first, new Pipeline("out", agg.output(), List.of(), out, List.of(first)));
        final QueryResult r = out.result();
        assertThat(r.rowCount()).isEqualTo(2);
        for (int row = 0; row < 2; row++) {
            final long key = (Long) r.value(row, 0);
            final double expected = BigDecimal.valueOf(key == 1 ? big : -big, 2).doubleValue();
            assertThat((Double) r.value(row, 1)).isEqualTo(expected);
            assertThat(r.value(row, 2)).isEqualTo(key == 1 ? 32L : 16L);
        }
        final HashAggregate sum = new HashAggregate(KV, List.of(), List.of(new Aggregate(AggregateFunction.SUM,
                col("v"), "s")));
        final ResultCollector sums = new ResultCollector(sum.outputType());
        final Pipeline summing = new Pipeline("sum", batches(input), List.of(), sum, List.of());
        run(2, summing, new Pipeline("out", sum.output(), List.of(), sums, List.of(summing)));
        // 32 rows of big and 16 of -big: 16 * big, beyond the range of a long, exact.
        assertThat(sums.result().value(0, 0))
                .isEqualTo(new BigDecimal(BigInteger.valueOf(big).multiply(BigInteger.valueOf(16)), 2));
    }

    @Test
    void joinTypesOverDuplicateKeys() {
        final List<Batch> probe = List.of(kv(new long[] {1, 2, 3}, new long[] {10, 20, 30}));
        final RowType buildType = new RowType(List.of("bk", "bv"), List.of(DataType.INT64, DataType.decimal(2)));
        final List<Batch> buildRows = List.of(Batch.of(LongVector.ofInt64(1, 1, 3, 3, 3),
                new LongVector(ColumnType.decimal(15, 2), new long[] {1, 2, 3, 4, 5}, 5, null)));
        for (final JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI)) {
            final HashJoinBuild build = new HashJoinBuild(buildType, List.of(col("bk")));
            final Pipeline b = new Pipeline("build", new MaterializedSource(buildType, () -> buildRows, false),
                    List.of(), build, List.of());
            final HashJoinProbe join = new HashJoinProbe(KV, List.of(col("k")), build, type,
                    Expr.gt(col("bv"), Expr.dec("0.01")));
            final ResultCollector out = new ResultCollector(join.outputType());
            run(3, b, new Pipeline("probe", batches(probe), List.of(join), out, List.of(b)));
            final List<List<Object>> rows = out.result().rows();
            switch (type) {
                case INNER -> assertThat(rows).hasSize(4);
                case LEFT -> assertThat(rows).hasSize(5).anySatisfy(r -> assertThat(r.get(2)).isNull());
                case SEMI -> assertThat(rows).extracting(r -> r.get(0)).containsExactlyInAnyOrder(1L, 3L);
                case ANTI -> assertThat(rows).extracting(r -> r.get(0)).containsExactly(2L);
                default -> throw new IllegalStateException(type.toString());
            }
        }
    }

    @Test
    void joinsMatchTheSameRowsWithDenseAndSparseKeys() {
        final RowType buildType = new RowType(List.of("bk", "bv"), List.of(DataType.INT64, DataType.decimal(2)));
        // dense: keys 1..4 (direct lookup by value); sparse: keys far apart (hashed)
        for (final long spread : new long[] {1, 1_000_000_007L}) {
            final long[] buildKeys = {1 * spread, 2 * spread, 2 * spread, 4 * spread, -3};
            final List<Batch> buildRows = List.of(Batch.of(LongVector.ofInt64(buildKeys),
                    new LongVector(ColumnType.decimal(15, 2), new long[] {1, 2, 3, 4, 5}, 5, null)));
            final List<Batch> probe = List.of(kv(new long[] {2 * spread, 3 * spread, -3, Long.MIN_VALUE,
                    Long.MAX_VALUE, 4 * spread, 0}, new long[] {1, 2, 3, 4, 5, 6, 7}));
            for (final JoinType type : JoinType.values()) {
                final HashJoinBuild build = new HashJoinBuild(buildType, List.of(col("bk")),
                        type == JoinType.INNER || type == JoinType.LEFT);
                final Pipeline b = new Pipeline("build", new MaterializedSource(buildType, () -> buildRows, false),
                        List.of(), build, List.of());
                final HashJoinProbe join = new HashJoinProbe(KV, List.of(col("k")), build, type, null);
                final ResultCollector out = new ResultCollector(join.outputType());
                run(2, b, new Pipeline("probe", batches(probe), List.of(join), out, List.of(b)));
                final List<List<Object>> rows = out.result().rows();
                switch (type) {
                    case INNER -> assertThat(rows).extracting(r -> r.get(0))
                            .containsExactlyInAnyOrder(2 * spread, 2 * spread, -3L, 4 * spread);
                    case LEFT -> assertThat(rows).hasSize(8).filteredOn(r -> r.get(2) == null).hasSize(4);
                    case SEMI -> assertThat(rows).extracting(r -> r.get(0))
                            .containsExactlyInAnyOrder(2 * spread, -3L, 4 * spread);
                    case ANTI, NULL_AWARE_ANTI -> assertThat(rows).extracting(r -> r.get(0))
                            .containsExactlyInAnyOrder(3 * spread, Long.MIN_VALUE, Long.MAX_VALUE, 0L);
                }
            }
        }
    }

    @Test
    void sortIsStableOverWorkersAndLimitsToTopN() {
        final List<Batch> input = new ArrayList<>();
        for (int b = 0; b < 10; b++) {
            input.add(kv(new long[] {b % 3, b, 7}, new long[] {b * 10, -b, 5}));
        }
        final Sort sort = new Sort(KV, List.of(SortKey.desc("k"), SortKey.asc("v")), 4);
        final ResultCollector out = new ResultCollector(KV);
        final Pipeline s = new Pipeline("sort", batches(input), List.of(), sort, List.of());
        run(4, s, new Pipeline("out", sort.output(), List.of(), out, List.of(s)));
        assertThat(out.result().rows()).extracting(r -> r.get(0)).containsExactly(9L, 8L, 7L, 7L);
    }

    @Test
    void workerFailureFailsTheQueryAndPipelinesMustFollowTheirDependencies() {
        final List<Batch> input = List.of(kv(new long[] {Long.MAX_VALUE}, new long[] {1}));
        final ResultCollector out = new ResultCollector(KV);
        final Projection overflow = new Projection(KV, List.of(new NamedExpr("x", Expr.add(col("k"), Expr.lit(1)))));
        assertThatThrownBy(() -> run(2, new Pipeline("p", batches(input), List.of(overflow), out, List.of())))
                .isInstanceOf(ArithmeticException.class);
        final Pipeline first = new Pipeline("first", batches(input), List.of(), out, List.of());
        final Pipeline second = new Pipeline("second", batches(input), List.of(), out, List.of(first));
        assertThatThrownBy(() -> run(1, second, first)).hasMessageContaining("not listed before it");
        assertThatThrownBy(() -> new PipelineExecutor(0)).hasMessageContaining("cores must be 1 or more");
    }
}
