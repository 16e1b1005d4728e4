package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Aggregation over rows with NULLs in the group keys and the arguments, in one phase and in two
 * (partial states through the wire layout, merged or shuffled by key), against SQL's rules applied
 * to the same rows in plain Java: NULL is a group of its own per key column (not 0, not ''),
 * SUM/AVG/MIN/MAX skip NULLs and are NULL over a group of NULLs, COUNT(x) counts the non-NULL x,
 * COUNT(*) every row, COUNT(DISTINCT x) the distinct non-NULL x.
 */
class NullAggregationTest {
    /** k: small integers (0 among them); s: '' among them; v NULL whenever k is 2; d NULL whenever s is 'b'. */
    private static final RowType INPUT = new RowType(List.of("k", "s", "v", "d"),
            List.of(DataType.INT64, DataType.STRING, DataType.INT64, DataType.decimal(2)));
    private static final List<Aggregate> SPLITTABLE = List.of(
            new Aggregate(AggregateFunction.SUM, col("v"), "sum_v"),
            new Aggregate(AggregateFunction.AVG, col("v"), "avg_v"),
            new Aggregate(AggregateFunction.MIN, col("v"), "min_v"),
            new Aggregate(AggregateFunction.MAX, col("v"), "max_v"),
            new Aggregate(AggregateFunction.COUNT, col("v"), "count_v"),
            new Aggregate(AggregateFunction.COUNT, col("s"), "count_s"),
            new Aggregate(AggregateFunction.COUNT_STAR, null, "n"),
            new Aggregate(AggregateFunction.SUM, col("d"), "sum_d"),
            new Aggregate(AggregateFunction.MAX, col("d"), "max_d"));
    private static final Aggregate COUNT_DISTINCT = new Aggregate(AggregateFunction.COUNT_DISTINCT, col("v"),
            "distinct_v");

    enum Keys {
        NONE, K, S, K_AND_S;

        List<NamedExpr> exprs() {
            return switch (this) {
                case NONE -> List.of();
                case K -> List.of(NamedExpr.column("k"));
                case S -> List.of(NamedExpr.column("s"));
                case K_AND_S -> List.of(NamedExpr.column("k"), NamedExpr.column("s"));
            };
        }

        List<Object> of(final Object[] row) {
            return switch (this) {
                case NONE -> List.of();
                case K -> Arrays.asList(row[0]);
                case S -> Arrays.asList(row[1]);
                case K_AND_S -> Arrays.asList(row[0], row[1]);
            };
        }
    }

    enum Phases { SINGLE, PARTIAL_THEN_MERGED, PARTIAL_THEN_SHUFFLED }

    static List<Object[]> randomRows(final Random random, final int n) {
        final List<Object[]> rows = new ArrayList<>();
        final String[] strings = {"", "a", "b"};
        for (int i = 0; i < n; i++) {
            final Long k = random.nextInt(4) == 0 ? null : (long) random.nextInt(3);
            final String s = random.nextInt(4) == 0 ? null : strings[random.nextInt(3)];
            final Long v = Long.valueOf(2).equals(k) || random.nextInt(5) == 0 ? null : (long) random.nextInt(21) - 10;
            final Long d = "b".equals(s) || random.nextInt(5) == 0 ? null : (long) random.nextInt(100_001) - 50_000;
            rows.add(new Object[] {k, s, v, d});
        }
        return rows;
    }

    @Property(tries = 120)
    void nullGroupsAndNullInputsFollowSqlInEveryPhase(@ForAll final long seed, @ForAll final Keys keys,
                                                      @ForAll final Phases phases,
                                                      @ForAll @IntRange(min = 1, max = 4) final int cores) {
        final Random random = new Random(seed);
        final int[] sizes = {0, 1, 9, 300, 3000};
        final List<Object[]> rows = randomRows(random, sizes[random.nextInt(sizes.length)]);
        final boolean oneShot = phases == Phases.SINGLE;
        final List<Aggregate> aggregates = new ArrayList<>(SPLITTABLE);
        if (oneShot) {
            aggregates.add(COUNT_DISTINCT);
        }
        final Map<List<Object>, List<Object>> expected = reference(rows, keys, oneShot);
        final QueryResult actual;
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            if (oneShot) {
                actual = aggregate(executor, new HashAggregate(INPUT, keys.exprs(), aggregates), INPUT,
                        RowsWithNulls.batches(INPUT, rows, random));
            } else {
                actual = twoPhases(executor, keys, aggregates, rows, random, phases == Phases.PARTIAL_THEN_SHUFFLED
                        && keys != Keys.NONE);
            }
        }
        assertSame(actual, keys.exprs().size(), expected);
    }

    @Test
    void aGroupOfNullsIsNullForSumAvgMinMaxAndZeroForCountsAfterTheMerge() {
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(new Object[] {i % 2 == 0 ? null : 0L, i % 3 == 0 ? null : "", null, i % 2 == 0 ? null : 0L});
        }
        final List<Aggregate> aggregates = SPLITTABLE;
        for (final Keys keys : Keys.values()) {
            for (final boolean shuffled : new boolean[] {false, true}) {
                try (PipelineExecutor executor = new PipelineExecutor(2)) {
                    final QueryResult actual = twoPhases(executor, keys, aggregates, rows, new Random(keys.ordinal()),
                            shuffled && keys != Keys.NONE);
                    assertSame(actual, keys.exprs().size(), reference(rows, keys, false));
                }
            }
        }
    }

    @Test
    void aggregatesOfAnExpressionSkipTheRowsWhereTheExpressionIsNull() {
        // v + k is NULL where v or k is: rows whose v column holds a value but whose k is NULL
        // must be skipped too, so the aggregates ask the expression for its NULLs, not the column.
        final io.sluice.engine.expr.Expr sum = io.sluice.engine.expr.Expr.add(col("v"), col("k"));
        final List<Aggregate> aggregates = List.of(new Aggregate(AggregateFunction.SUM, sum, "sum_e"),
                new Aggregate(AggregateFunction.AVG, sum, "avg_e"), new Aggregate(AggregateFunction.MIN, sum, "min_e"),
                new Aggregate(AggregateFunction.MAX, sum, "max_e"), new Aggregate(AggregateFunction.COUNT, sum, "count_e"));
        final Random random = new Random(11);
        final List<Object[]> rows = randomRows(random, 2000);
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        final Map<List<Object>, List<Long>> values = new LinkedHashMap<>();
        for (final Object[] row : rows) {
            final List<Long> group = values.computeIfAbsent(Keys.S.of(row), g -> new ArrayList<>());
            if (row[0] != null && row[2] != null) {
                group.add((Long) row[2] + (Long) row[0]);
            }
        }
        for (final Map.Entry<List<Object>, List<Long>> g : values.entrySet()) {
            final List<Long> v = g.getValue();
            final long total = v.stream().mapToLong(Long::longValue).sum();
            final List<Object> row = new ArrayList<>(g.getKey());
            row.add(v.isEmpty() ? null : BigDecimal.valueOf(total));
            row.add(v.isEmpty() ? null : total / (double) v.size());
            row.add(v.isEmpty() ? null : v.stream().mapToLong(Long::longValue).min().getAsLong());
            row.add(v.isEmpty() ? null : v.stream().mapToLong(Long::longValue).max().getAsLong());
            row.add((long) v.size());
            expected.put(g.getKey(), row);
        }
        try (PipelineExecutor executor = new PipelineExecutor(3)) {
            assertSame(aggregate(executor, new HashAggregate(INPUT, Keys.S.exprs(), aggregates), INPUT,
                    RowsWithNulls.batches(INPUT, rows, random)), 1, expected);
            assertSame(twoPhases(executor, Keys.S, aggregates, rows, random, true), 1, expected);
        }
    }

    @Test
    void nullKeysComeOutAsNullAndApartFromZeroAndEmpty() {
        final List<Object[]> rows = List.of(new Object[] {null, null, 1L, 100L}, new Object[] {0L, "", 2L, 200L},
                new Object[] {null, "", 4L, null}, new Object[] {0L, null, 8L, null}, new Object[] {null, null, 16L, 1L});
        try (PipelineExecutor executor = new PipelineExecutor(3)) {
            final QueryResult r = aggregate(executor, new HashAggregate(INPUT, Keys.K_AND_S.exprs(),
                    List.of(new Aggregate(AggregateFunction.SUM, col("v"), "sum_v"))), INPUT,
                    RowsWithNulls.batches(INPUT, rows, new Random(1)));
            assertThat(r.rows()).containsExactlyInAnyOrder(Arrays.asList(null, null, BigDecimal.valueOf(17)),
                    Arrays.asList(0L, "", BigDecimal.valueOf(2)), Arrays.asList(null, "", BigDecimal.valueOf(4)),
                    Arrays.asList(0L, null, BigDecimal.valueOf(8)));
        }
    }

    private static QueryResult twoPhases(final PipelineExecutor executor, final Keys keys,
                                         final List<Aggregate> aggregates, final List<Object[]> rows,
                                         final Random random, final boolean shuffled) {
        final RowType stateType = HashAggregate.stateType(INPUT, keys.exprs(), aggregates);
        final int parts = 1 + random.nextInt(4);
        final List<List<Object[]>> byPart = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            byPart.add(new ArrayList<>());
        }
        for (final Object[] row : rows) {
            byPart.get(random.nextInt(parts)).add(row);
        }
        final List<Batch> states = new ArrayList<>();
        for (final List<Object[]> part : byPart) {
            final HashAggregate partial = new HashAggregate(INPUT, keys.exprs(), aggregates, false,
                    AggregationPhase.PARTIAL);
            for (final Batch b : aggregate(executor, partial, INPUT, RowsWithNulls.batches(INPUT, part, random)).batches()) {
                states.add(RowsWithNulls.throughTheWire(b, stateType));
            }
        }
        final HashAggregate fin = new HashAggregate(INPUT, keys.exprs(), aggregates, shuffled, AggregationPhase.FINAL);
        return aggregate(executor, fin, stateType, shuffled ? buckets(states, stateType, keys.exprs().size()) : states);
    }

    /**
     * State rows split by the engine's hash shuffle on the key columns, one batch per bucket tagged
     * with its bucket, as a shuffle delivers them to a shuffle group: every row of a key, NULL keys
     * included, must land in one bucket, or a group comes out twice.
     */
    private static List<Batch> buckets(final List<Batch> states, final RowType stateType, final int keyCount) {
        final int bucketCount = 4;
        final TypeKind[] kinds = new TypeKind[keyCount];
        for (int k = 0; k < keyCount; k++) {
            kinds[k] = stateType.type(k).storage().kind();
        }
        final int[] keyColumns = new int[keyCount];
        for (int k = 0; k < keyCount; k++) {
            keyColumns[k] = k;
        }
        return RowsWithNulls.oneBatchPerBucket(RowsWithNulls.bucketed(states, keyColumns,
                new HashBucketFunction(bucketCount, kinds)), stateType, bucketCount);
    }

    private static QueryResult aggregate(final PipelineExecutor executor, final HashAggregate aggregation,
                                         final RowType rowType, final List<Batch> batches) {
        final Pipeline in = new Pipeline("aggregate", new MaterializedSource(rowType, () -> batches, false),
                List.of(), aggregation, List.of());
        final ResultCollector out = new ResultCollector(aggregation.outputType());
        executor.run(List.of(in, new Pipeline("out", aggregation.output(), List.of(), out, List.of(in))));
        return out.result();
    }

    /** The expected row of each group (keys, then the aggregates of {@link #SPLITTABLE}, then COUNT(DISTINCT v)). */
    private static Map<List<Object>, List<Object>> reference(final List<Object[]> rows, final Keys keys,
                                                             final boolean withDistinct) {
        final Map<List<Object>, List<Object[]>> groups = new LinkedHashMap<>();
        if (keys == Keys.NONE) {
            groups.put(List.of(), new ArrayList<>());
        }
        for (final Object[] row : rows) {
            groups.computeIfAbsent(keys.of(row), g -> new ArrayList<>()).add(row);
        }
        final Map<List<Object>, List<Object>> out = new HashMap<>();
        for (final Map.Entry<List<Object>, List<Object[]>> g : groups.entrySet()) {
            final List<Long> v = new ArrayList<>();
            final List<Long> d = new ArrayList<>();
            long strings = 0;
            for (final Object[] row : g.getValue()) {
                if (row[2] != null) {
                    v.add((Long) row[2]);
                }
                if (row[3] != null) {
                    d.add((Long) row[3]);
                }
                strings += row[1] == null ? 0 : 1;
            }
            final List<Object> expected = new ArrayList<>(g.getKey());
            // SUM of integers is a 128-bit integer (DuckDB's HUGEINT), read as an exact BigDecimal
            expected.add(v.isEmpty() ? null : BigDecimal.valueOf(v.stream().mapToLong(Long::longValue).sum()));
            expected.add(v.isEmpty() ? null : v.stream().mapToLong(Long::longValue).sum() / (double) v.size());
            expected.add(v.isEmpty() ? null : v.stream().mapToLong(Long::longValue).min().getAsLong());
            expected.add(v.isEmpty() ? null : v.stream().mapToLong(Long::longValue).max().getAsLong());
            expected.add((long) v.size());
            expected.add(strings);
            expected.add((long) g.getValue().size());
            expected.add(d.isEmpty() ? null : BigDecimal.valueOf(d.stream().mapToLong(Long::longValue).sum(), 2));
            expected.add(d.isEmpty() ? null : BigDecimal.valueOf(d.stream().mapToLong(Long::longValue).max()
                    .getAsLong(), 2));
            if (withDistinct) {
                expected.add((long) new HashSet<>(v).size());
            }
            out.put(g.getKey(), expected);
        }
        return out;
    }

    private static void assertSame(final QueryResult actual, final int keyCount,
                                   final Map<List<Object>, List<Object>> expected) {
        final Set<List<Object>> seen = new HashSet<>();
        for (final List<Object> row : actual.rows()) {
            final List<Object> key = row.subList(0, keyCount);
            assertThat(seen.add(new ArrayList<>(key))).as("group %s comes out once", key).isTrue();
            final List<Object> want = expected.get(key);
            assertThat(want).as("group %s exists in the input", key).isNotNull();
            assertThat(row).as("group %s", key).hasSameSizeAs(want);
            for (int c = 0; c < row.size(); c++) {
                if (want.get(c) instanceof Double w) {
                    assertThat((Double) row.get(c)).as("group %s column %d", key, c)
                            .isCloseTo(w, org.assertj.core.data.Offset.offset(1e-9 * Math.max(1, Math.abs(w))));
                } else {
                    assertThat(row.get(c)).as("group %s column %d", key, c).isEqualTo(want.get(c));
                }
            }
        }
        assertThat(seen).as("groups").containsExactlyInAnyOrderElementsOf(expected.keySet());
    }
}
