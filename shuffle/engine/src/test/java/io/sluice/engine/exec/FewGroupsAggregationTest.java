package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * SUM, AVG, COUNT and COUNT(*) by group against sums in BigInteger, over tables of one group up to past
 * {@link GroupRuns#MAX_GROUPS} (a batch of at least 256 rows in a table of that many groups or fewer is
 * added group by group, any other row by row), with batches on both sides of 256 rows, NULLs or none, and
 * values near the 64-bit limits so that sums carry into the high half; and {@link GroupRuns} itself lists
 * every row once, group by group, each group's rows ascending.
 */
class FewGroupsAggregationTest {
    private static final RowType INPUT = new RowType(List.of("g", "v"), List.of(DataType.INT64, DataType.INT64));

    @Property(tries = 60)
    void sumsAveragesAndCountsByGroupAreExact(@ForAll final long seed,
                                              @ForAll @IntRange(min = 1, max = 70) final int groups,
                                              @ForAll final boolean withNulls, @ForAll final boolean huge) {
        final Random random = new Random(seed);
        final List<Batch> batches = new ArrayList<>();
        final BigInteger[] sums = new BigInteger[groups];
        final long[] counted = new long[groups];
        final long[] rows = new long[groups];
        Arrays.fill(sums, BigInteger.ZERO);
        for (int b = 0, batchCount = 1 + random.nextInt(6); b < batchCount; b++) {
            final int n = random.nextBoolean() ? 1 + random.nextInt(300) : 256 + random.nextInt(8192 - 255);
            final long[] g = new long[n];
            final long[] v = new long[n];
            final long[] nulls = withNulls ? new long[NullMask.words(n)] : null;
            for (int i = 0; i < n; i++) {
                // the first rows of a batch visit the groups in order, so a table soon holds them all
                g[i] = i < groups ? i : random.nextInt(groups);
                v[i] = huge ? Long.MAX_VALUE - random.nextInt(1000) * (random.nextBoolean() ? 1L : -1L) * 3
                        : random.nextInt(2_000_001) - 1_000_000;
                rows[(int) g[i]]++;
                if (withNulls && random.nextInt(7) == 0) {
                    NullMask.setNull(nulls, i);
                    continue;
                }
                counted[(int) g[i]]++;
                sums[(int) g[i]] = sums[(int) g[i]].add(BigInteger.valueOf(v[i]));
            }
            batches.add(Batch.of(new LongVector(ColumnType.INT64, g, n, null),
                    new LongVector(ColumnType.INT64, v, n, nulls)));
        }
        final HashAggregate aggregation = new HashAggregate(INPUT, List.of(NamedExpr.column("g")), List.of(
                new Aggregate(AggregateFunction.SUM, col("v"), "s"),
                new Aggregate(AggregateFunction.AVG, col("v"), "a"),
                new Aggregate(AggregateFunction.COUNT, col("v"), "n"),
                new Aggregate(AggregateFunction.COUNT_STAR, null, "rows")));
        final ResultCollector out = new ResultCollector(aggregation.outputType());
        try (PipelineExecutor executor = new PipelineExecutor(1 + random.nextInt(2))) {
            final Pipeline in = new Pipeline("aggregate", new MaterializedSource(INPUT, () -> batches, false),
                    List.of(), aggregation, List.of());
            executor.run(List.of(in, new Pipeline("out", aggregation.output(), List.of(), out, List.of(in))));
        }
        final QueryResult result = out.result();
        // a group whose rows no batch drew has no row
        assertThat(result.rowCount()).isEqualTo((int) Arrays.stream(rows).filter(c -> c > 0).count());
        for (int r = 0; r < result.rowCount(); r++) {
            final int g = (int) (long) (Long) result.value(r, 0);
            assertThat(result.value(r, 4)).as("COUNT(*) of group %d", g).isEqualTo(rows[g]);
            assertThat(result.value(r, 3)).as("COUNT(v) of group %d", g).isEqualTo(counted[g]);
            if (counted[g] == 0) {
                assertThat(result.value(r, 1)).isNull();
                assertThat(result.value(r, 2)).isNull();
                continue;
            }
            assertThat(result.value(r, 1)).as("SUM(v) of group %d", g).isEqualTo(new BigDecimal(sums[g]));
            final double average = new BigDecimal(sums[g]).divide(BigDecimal.valueOf(counted[g]), new MathContext(60))
                    .doubleValue();
            assertThat((Double) result.value(r, 2)).as("AVG(v) of group %d", g).isCloseTo(average,
                    org.assertj.core.data.Offset.offset(Math.abs(average) * 1e-15));
        }
    }

    @Property(tries = 200)
    void runsListEveryRowOnceGroupByGroupInAscendingOrder(@ForAll final long seed,
                                                         @ForAll @IntRange(min = 1, max = 64) final int groups,
                                                         @ForAll @IntRange(min = 0, max = 8192) final int n) {
        final Random random = new Random(seed);
        final int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = random.nextInt(groups);
        }
        final GroupRuns runs = new GroupRuns();
        runs.group(ids, n, groups);
        final List<Integer> listed = new ArrayList<>();
        int previousGroup = -1;
        for (int r = 0; r < runs.count; r++) {
            assertThat(runs.groups[r]).isGreaterThan(previousGroup);
            previousGroup = runs.groups[r];
            assertThat(runs.length(r)).isPositive();
            for (int j = runs.starts[r]; j < runs.starts[r + 1]; j++) {
                assertThat(ids[runs.rows[j]]).isEqualTo(runs.groups[r]);
                if (j > runs.starts[r]) {
                    assertThat(runs.rows[j]).isGreaterThan(runs.rows[j - 1]);
                }
                listed.add(runs.rows[j]);
            }
        }
        assertThat(listed).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, n).boxed().toList());
    }
}
