package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A two-phase aggregation, PARTIAL over each part of the input and FINAL over the state rows of
 * all parts, gives exactly the rows one SINGLE aggregation gives over the whole input.
 */
class PartialAggregationTest {
    static final RowType INPUT = new RowType(List.of("g", "v", "big", "d", "dt"),
            List.of(DataType.INT64, DataType.INT64, DataType.INT64, DataType.decimal(2), DataType.DATE));
    private static final ColumnType DECIMAL = ColumnType.decimal(15, 2);
    static final List<Aggregate> AGGREGATES = List.of(
            new Aggregate(AggregateFunction.SUM, col("v"), "sum_v"),
            new Aggregate(AggregateFunction.SUM, col("d"), "sum_d"),
            new Aggregate(AggregateFunction.COUNT, col("v"), "count_v"),
            new Aggregate(AggregateFunction.COUNT_STAR, null, "n"),
            new Aggregate(AggregateFunction.AVG, col("big"), "avg_big"),
            new Aggregate(AggregateFunction.AVG, col("d"), "avg_d"),
            new Aggregate(AggregateFunction.MIN, col("big"), "min_big"),
            new Aggregate(AggregateFunction.MAX, col("d"), "max_d"),
            new Aggregate(AggregateFunction.MIN, col("dt"), "min_dt"),
            new Aggregate(AggregateFunction.MAX, col("dt"), "max_dt"));

    /** The group keys: none, an expression (FINAL finds it by name in the state rows), or two columns. */
    enum Keys {
        NONE(List.of()),
        EXPRESSION(List.of(new NamedExpr("grp", Expr.add(col("g"), Expr.lit(1))))),
        TWO_COLUMNS(List.of(NamedExpr.column("g"), NamedExpr.column("dt")));

        final List<NamedExpr> keys;

        Keys(final List<NamedExpr> keys) {
            this.keys = keys;
        }
    }

    /** How finalization takes the state rows. */
    enum Final { MERGE_GROUP, SHUFFLE_GROUP }

    @Property(tries = 150)
    void partialThenFinalGivesTheRowsOfOnePhase(@ForAll final long seed, @ForAll final Keys keys,
                                               @ForAll @IntRange(min = 1, max = 7) final int parts,
                                               @ForAll final Final finalPhase,
                                               @ForAll @IntRange(min = 1, max = 4) final int cores) {
        final Random random = new Random(seed);
        final int[] sizes = {0, 1, 7, 500, 5000, 20_000};
        final int[] groupCounts = {1, 3, 100, 1_000_000};
        final Rows rows = Rows.random(random, sizes[random.nextInt(sizes.length)],
                groupCounts[random.nextInt(groupCounts.length)]);
        final List<List<Batch>> input = rows.split(random, parts);
        final boolean shuffled = finalPhase == Final.SHUFFLE_GROUP && keys != Keys.NONE;

        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            final HashAggregate single = new HashAggregate(INPUT, keys.keys, AGGREGATES);
            final List<Batch> all = new ArrayList<>();
            input.forEach(all::addAll);
            final QueryResult expected = aggregate(executor, single, INPUT, all);

            final RowType stateType = HashAggregate.stateType(INPUT, keys.keys, AGGREGATES);
            final List<Batch> states = new ArrayList<>();
            for (final List<Batch> part : input) {
                final HashAggregate partial = new HashAggregate(INPUT, keys.keys, AGGREGATES, false,
                        AggregationPhase.PARTIAL);
                assertThat(partial.outputType()).isEqualTo(stateType);
                states.addAll(aggregate(executor, partial, INPUT, part).batches());
            }
            final HashAggregate fin = new HashAggregate(INPUT, keys.keys, AGGREGATES, shuffled,
                    AggregationPhase.FINAL);
            final QueryResult actual = aggregate(executor, fin, stateType,
                    shuffled ? buckets(states, keys.keys.size()) : states);

            assertThat(fin.outputType()).isEqualTo(single.outputType());
            if (keys == Keys.NONE) {
                assertThat(actual.rowCount()).isEqualTo(1);
            }
            // Double.equals compares the bits, so the averages must be bit for bit the same.
            assertThat(multiset(actual.rows())).isEqualTo(multiset(expected.rows()));
        }
    }

    @Test
    void withoutKeysEveryPhaseGivesOneRowOverNoInput() {
        final Batch emptyBatch = Rows.random(new Random(0), 0, 1).batch(0, 0);
        final List<Object> nothing = Arrays.asList(null, null, 0L, 0L, null, null, null, null, null, null);
        try (PipelineExecutor executor = new PipelineExecutor(3)) {
            assertThat(aggregate(executor, new HashAggregate(INPUT, List.of(), AGGREGATES), INPUT, List.of()).rows())
                    .containsExactly(nothing);

            final RowType stateType = HashAggregate.stateType(INPUT, List.of(), AGGREGATES);
            final List<Batch> states = new ArrayList<>();
            for (int part = 0; part < 3; part++) {
                final HashAggregate partial = new HashAggregate(INPUT, List.of(), AGGREGATES, false,
                        AggregationPhase.PARTIAL);
                states.addAll(aggregate(executor, partial, INPUT, part == 0 ? List.of() : List.of(emptyBatch))
                        .batches());
            }
            assertThat(states).hasSize(3).allSatisfy(b -> assertThat(b.rowCount()).isEqualTo(1));
            for (final List<Batch> stateRows : List.of(List.<Batch>of(), states)) {
                final HashAggregate fin = new HashAggregate(INPUT, List.of(), AGGREGATES, false,
                        AggregationPhase.FINAL);
                assertThat(aggregate(executor, fin, stateType, stateRows).rows()).containsExactly(nothing);
            }
        }
    }

    @Test
    void stateRowsAreTheKeysThenEachAggregatesStateNamedAfterIt() {
        final RowType state = HashAggregate.stateType(INPUT, Keys.EXPRESSION.keys, AGGREGATES);
        assertThat(state.names()).containsExactly("grp",
                "sum_v$sum_hi", "sum_v$sum_lo", "sum_v$count", "sum_d$sum_hi", "sum_d$sum_lo", "sum_d$count",
                "count_v$count", "n$count",
                "avg_big$sum_hi", "avg_big$sum_lo", "avg_big$count", "avg_d$sum_hi", "avg_d$sum_lo", "avg_d$count",
                "min_big$value", "max_d$value", "min_dt$value", "max_dt$value");
        assertThat(state.types().subList(state.size() - 4, state.size()))
                .containsExactly(DataType.INT64, DataType.decimal(2), DataType.DATE, DataType.DATE);
    }

    @Test
    void countDistinctCannotBeSplitIntoPhases() {
        final List<Aggregate> aggregates = List.of(new Aggregate(AggregateFunction.SUM, col("v"), "s"),
                new Aggregate(AggregateFunction.COUNT_DISTINCT, col("v"), "distinct_v"));
        assertThat(HashAggregate.splittable(aggregates)).isFalse();
        assertThat(HashAggregate.splittable(AGGREGATES)).isTrue();
        for (final AggregationPhase phase : List.of(AggregationPhase.PARTIAL, AggregationPhase.FINAL)) {
            assertThatThrownBy(() -> new HashAggregate(INPUT, Keys.EXPRESSION.keys, aggregates, false, phase))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("COUNT_DISTINCT as 'distinct_v' has no partial state")
                    .hasMessageContaining("cannot run as " + phase);
        }
        assertThatThrownBy(() -> HashAggregate.stateType(INPUT, List.of(), aggregates))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new HashAggregate(INPUT, List.of(), aggregates, false, AggregationPhase.SINGLE).outputType()
                .names()).containsExactly("s", "distinct_v");
    }

    /** Runs an aggregation over batches and reads its output with a second pipeline. */
    private static QueryResult aggregate(final PipelineExecutor executor, final HashAggregate aggregation,
                                         final RowType rowType, final List<Batch> batches) {
        final Pipeline in = new Pipeline("aggregate", new MaterializedSource(rowType, () -> batches, false),
                List.of(), aggregation, List.of());
        final ResultCollector out = new ResultCollector(aggregation.outputType());
        executor.run(List.of(in, new Pipeline("out", aggregation.output(), List.of(), out, List.of(in))));
        return out.result();
    }

    /**
     * The state rows regrouped into buckets by their key columns (the first {@code keyCount}), one
     * batch per bucket in random order, as a shuffle on the keys delivers them to a shuffle group.
     */
    static List<Batch> buckets(final List<Batch> states, final int keyCount) {
        if (states.isEmpty()) {
            return states;
        }
        final int columns = states.get(0).columnCount();
        final ColumnVector[] all = new ColumnVector[columns];
        for (int c = 0; c < columns; c++) {
            final List<ColumnVector> parts = new ArrayList<>();
            for (final Batch b : states) {
                parts.add(b.column(c));
            }
            all[c] = Vectors.concat(parts, parts.get(0).type());
        }
        final int rows = all[0].rowCount();
        final int buckets = rows / 1000 + 1;
        final List<List<Integer>> rowsOf = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            rowsOf.add(new ArrayList<>());
        }
        for (int r = 0; r < rows; r++) {
            long hash = 0;
            for (int k = 0; k < keyCount; k++) {
                hash = hash * 31 + all[k].key(r);
            }
            rowsOf.get((int) Math.floorMod(hash, (long) buckets)).add(r);
        }
        final List<Batch> out = new ArrayList<>();
        for (final List<Integer> bucket : rowsOf) {
            final int[] selected = bucket.stream().mapToInt(Integer::intValue).toArray();
            final ColumnVector[] vectors = new ColumnVector[columns];
            for (int c = 0; c < columns; c++) {
                vectors[c] = Vectors.gather(all[c], selected, selected.length);
            }
            out.add(Batch.of(vectors));
        }
        Collections.shuffle(out, new Random(rows));
        return out;
    }

    static Map<List<Object>, Integer> multiset(final List<List<Object>> rows) {
        final Map<List<Object>, Integer> counts = new HashMap<>();
        for (final List<Object> row : rows) {
            counts.merge(row, 1, Integer::sum);
        }
        return counts;
    }

    /** Input rows of {@link #INPUT} in column arrays; {@code v} has nulls, {@code big} spans the whole long range. */
    record Rows(long[] g, long[] v, long[] vNulls, long[] big, long[] d, int[] dt) {
        static Rows random(final Random random, final int n, final int groups) {
            final Rows rows = new Rows(new long[n], new long[n], new long[NullMask.words(n)], new long[n],
                    new long[n], new int[n]);
            for (int r = 0; r < n; r++) {
                rows.g[r] = random.nextInt(groups);
                if (random.nextInt(10) == 0) {
                    NullMask.setNull(rows.vNulls, r);
                } else {
                    rows.v[r] = random.nextInt(2_000_001) - 1_000_000;
                }
                rows.big[r] = random.nextInt(4) == 0 ? Long.MAX_VALUE - random.nextInt(3) : random.nextLong();
                rows.d[r] = random.nextLong() % 1_000_000_000_000L;
                rows.dt[r] = random.nextInt(20_000);
            }
            return rows;
        }

        /** The rows cut into {@code parts} runs (some may be empty), each cut into batches of random sizes. */
        List<List<Batch>> split(final Random random, final int parts) {
            final int n = g.length;
            final int[] cuts = new int[parts + 1];
            for (int p = 1; p < parts; p++) {
                cuts[p] = random.nextInt(n + 1);
            }
            cuts[parts] = n;
            Arrays.sort(cuts);
            final int maxBatch = random.nextBoolean() ? Block.MAX_ROWS : 1 + random.nextInt(300);
            final List<List<Batch>> out = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                final List<Batch> part = new ArrayList<>();
                for (int from = cuts[p]; from < cuts[p + 1]; ) {
                    final int to = Math.min(cuts[p + 1], from + 1 + random.nextInt(maxBatch));
                    part.add(batch(from, to));
                    from = to;
                }
                out.add(part);
            }
            return out;
        }

        Batch batch(final int from, final int to) {
            final int n = to - from;
            final long[] nulls = new long[NullMask.words(n)];
            for (int r = from; r < to; r++) {
                if (NullMask.isNull(vNulls, r)) {
                    NullMask.setNull(nulls, r - from);
                }
            }
            return Batch.of(new LongVector(ColumnType.INT64, Arrays.copyOfRange(g, from, to), n, null),
                    new LongVector(ColumnType.INT64, Arrays.copyOfRange(v, from, to), n, nulls),
                    new LongVector(ColumnType.INT64, Arrays.copyOfRange(big, from, to), n, null),
                    new LongVector(DECIMAL, Arrays.copyOfRange(d, from, to), n, null),
                    new IntVector(ColumnType.DATE, Arrays.copyOfRange(dt, from, to), n, null));
        }
    }
}
