package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The window operator on its own: rows pushed into its sink states, the output read back and
 * compared with SQL's rules computed naively per row (ranks by counting the rows before, frames by
 * scanning the partition).
 */
class WindowTest {
    private static final RowType INPUT = new RowType(List.of("p", "o", "v"),
            List.of(DataType.INT64, DataType.INT64, DataType.INT64));
    private static final List<WindowFunction> FUNCTIONS = List.of(
            WindowFunction.ranking(WindowFunctionType.ROW_NUMBER, "rn"),
            WindowFunction.ranking(WindowFunctionType.RANK, "rk"),
            WindowFunction.ranking(WindowFunctionType.DENSE_RANK, "dr"),
            WindowFunction.aggregate(WindowFunctionType.SUM, col("v"), WindowFrame.RANGE_TO_CURRENT_ROW, "sum"),
            WindowFunction.aggregate(WindowFunctionType.COUNT, col("v"), WindowFrame.RANGE_TO_CURRENT_ROW, "cnt"),
            WindowFunction.aggregate(WindowFunctionType.COUNT_STAR, null, WindowFrame.RANGE_TO_CURRENT_ROW, "cs"),
            WindowFunction.aggregate(WindowFunctionType.MIN, col("v"), WindowFrame.RANGE_TO_CURRENT_ROW, "mn"),
            WindowFunction.aggregate(WindowFunctionType.MAX, col("v"), WindowFrame.PARTITION, "mx"),
            WindowFunction.aggregate(WindowFunctionType.AVG, col("v"), WindowFrame.PARTITION, "avg"),
            WindowFunction.aggregate(WindowFunctionType.SUM, col("v"), WindowFrame.ROWS_TO_CURRENT_ROW, "rsum"));

    /** Runs a window over rows split into batches and over {@code workers} sink states. */
    private static List<List<Object>> run(final List<Object[]> rows, final boolean partitioned, final int workers,
                                          final List<String> partitionBy, final Random random) {
        final Window window = new Window(INPUT, partitionBy, List.of(SortKey.asc("o")), FUNCTIONS, partitioned);
        final List<Window.Rows> locals = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            locals.add(window.createLocal());
        }
        if (partitioned) {
            // Whole partitions per worker, as a shuffle on the partition key gives them.
            final List<List<Object[]>> byWorker = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                byWorker.add(new ArrayList<>());
            }
            for (final Object[] r : rows) {
                byWorker.get(Math.floorMod(Objects.hashCode(r[0]), workers)).add(r);
            }
            for (int w = 0; w < workers; w++) {
                RowsWithNulls.batches(INPUT, byWorker.get(w), random).forEach(locals.get(w)::accept);
            }
        } else {
            int i = 0;
            for (final Batch b : RowsWithNulls.batches(INPUT, rows, random)) {
                locals.get(i++ % workers).accept(b);
            }
        }
        locals.forEach(window::combine);
        window.finish();
        final Source out = window.output();
        final List<Batch> batches = new ArrayList<>();
        final int n = out.morselCount();
        final Source.Reader reader = out.openReader();
        for (int m = 0; m < n; m++) {
            reader.produce(m, batches::add);
        }
        return new QueryResult(window.outputType(), batches).rows();
    }

    private static Object[] row(final Long p, final Long o, final Long v) {
        return new Object[] {p, o, v};
    }

    @Test
    void noRowsGiveNoRows() {
        assertThat(run(List.of(), true, 2, List.of("p"), new Random(1))).isEmpty();
        assertThat(run(List.of(), false, 2, List.of(), new Random(1))).isEmpty();
    }

    @Test
    void oneRowRanksFirstAndAggregatesItself() {
        final List<List<Object>> out = run(List.<Object[]>of(row(1L, 5L, 7L)), false, 1, List.of(), new Random(2));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).subList(0, 6)).containsExactly(1L, 5L, 7L, 1L, 1L, 1L);
        assertThat(decimal(out.get(0).get(6))).isEqualByComparingTo("7");
        assertThat(out.get(0).subList(7, 11)).containsExactly(1L, 1L, 7L, 7L);
        assertThat((Double) out.get(0).get(11)).isEqualTo(7.0);
        assertThat(decimal(out.get(0).get(12))).isEqualByComparingTo("7");
    }

    @Test
    void peersShareRanksAndTheirRunningSums() {
        // o = 10, 20, 20, 30 in one partition: RANK 1, 2, 2, 4; DENSE_RANK 1, 2, 2, 3; the running
        // sum (RANGE) includes both peers at 20: 1, 1+2+3, 1+2+3, 10.
        final List<Object[]> rows = List.of(row(1L, 20L, 2L), row(1L, 10L, 1L), row(1L, 30L, 4L), row(1L, 20L, 3L));
        final List<List<Object>> out = sortedBy(run(rows, true, 2, List.of("p"), new Random(3)), 3);
        assertThat(column(out, 4)).containsExactly(1L, 2L, 2L, 4L);
        assertThat(column(out, 5)).containsExactly(1L, 2L, 2L, 3L);
        assertThat(column(out, 6)).extracting(WindowTest::decimal).usingElementComparator(BigDecimal::compareTo)
                .containsExactly(new BigDecimal(1), new BigDecimal(6), new BigDecimal(6), new BigDecimal(10));
        assertThat(column(out, 8)).containsExactly(1L, 3L, 3L, 4L);
    }

    @Test
    void nullPartitionKeysAreOnePartitionAndAggregatesSkipNullValues() {
        final List<Object[]> rows = List.of(row(null, 1L, 5L), row(null, 2L, null), row(2L, 1L, null),
                row(null, null, 1L));
        final List<List<Object>> out = run(rows, true, 3, List.of("p"), new Random(4));
        final List<List<Object>> nullPartition = new ArrayList<>();
        for (final List<Object> r : out) {
            if (r.get(0) == null) {
                nullPartition.add(r);
            }
        }
        // NULL order keys go last: o = 1, 2, NULL.
        final List<List<Object>> sorted = sortedBy(nullPartition, 3);
        assertThat(column(sorted, 1)).containsExactly(1L, 2L, null);
        assertThat(column(sorted, 7)).as("COUNT(v) up to each row").containsExactly(1L, 1L, 2L);
        assertThat(column(sorted, 10)).as("MAX(v) over the partition").containsExactly(5L, 5L, 5L);
        final List<Object> lone = out.stream().filter(r -> Objects.equals(r.get(0), 2L)).findFirst().orElseThrow();
        assertThat(lone.get(6)).as("SUM of only NULLs").isNull();
        assertThat(lone.get(11)).as("AVG of only NULLs").isNull();
        assertThat(lone.get(7)).as("COUNT of only NULLs").isEqualTo(0L);
    }

    @Property(tries = 60)
    void everyFunctionMatchesSqlsRulesComputedRowByRow(@ForAll final long seed) {
        final Random random = new Random(seed);
        final int n = random.nextInt(300);
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(row(random.nextInt(6) == 0 ? null : (long) random.nextInt(5),
                    random.nextInt(8) == 0 ? null : (long) random.nextInt(10),
                    random.nextInt(5) == 0 ? null : (long) random.nextInt(41) - 20));
        }
        final boolean partitioned = random.nextBoolean();
        final List<String> partitionBy = partitioned || random.nextBoolean() ? List.of("p") : List.of();
        final List<List<Object>> out = run(rows, partitioned, 1 + random.nextInt(4), partitionBy, random);
        assertThat(out).hasSize(n);
        final boolean byP = !partitionBy.isEmpty();
        for (final List<Object> r : out) {
            final List<List<Object>> partition = new ArrayList<>();
            for (final List<Object> q : out) {
                if (!byP || Objects.equals(q.get(0), r.get(0))) {
                    partition.add(q);
                }
            }
            long before = 0;
            final Set<Object> distinctBefore = new HashSet<>();
            final List<Long> frame = new ArrayList<>();
            final List<Long> all = new ArrayList<>();
            long framed = 0;
            for (final List<Object> q : partition) {
                final int cmp = compareOrder(q.get(1), r.get(1));
                if (cmp < 0) {
                    before++;
                    distinctBefore.add(q.get(1) == null ? "NULL" : q.get(1));
                }
                if (cmp <= 0) {
                    framed++;
                    if (q.get(2) != null) {
                        frame.add((Long) q.get(2));
                    }
                }
                if (q.get(2) != null) {
                    all.add((Long) q.get(2));
                }
            }
            assertThat(r.get(4)).as("RANK of %s", r).isEqualTo(before + 1);
            assertThat(r.get(5)).as("DENSE_RANK of %s", r).isEqualTo((long) distinctBefore.size() + 1);
            assertThat(nullableSum(frame, r.get(6))).as("SUM RANGE of %s", r).isTrue();
            assertThat(r.get(7)).as("COUNT RANGE of %s", r).isEqualTo((long) frame.size());
            assertThat(r.get(8)).as("COUNT(*) RANGE of %s", r).isEqualTo(framed);
            assertThat(r.get(9)).as("MIN RANGE of %s", r).isEqualTo(frame.stream().min(Long::compare).orElse(null));
            assertThat(r.get(10)).as("MAX PARTITION of %s", r).isEqualTo(all.stream().max(Long::compare).orElse(null));
            if (all.isEmpty()) {
                assertThat(r.get(11)).isNull();
            } else {
                final double avg = all.stream().mapToLong(Long::longValue).sum() / (double) all.size();
                assertThat((Double) r.get(11)).as("AVG PARTITION of %s", r).isCloseTo(avg,
                        org.assertj.core.data.Offset.offset(1e-9));
            }
            // ROW_NUMBER numbers the partition 1..n in window order, and the ROWS running sum follows it.
            final List<List<Object>> byNumber = new ArrayList<>(partition);
            byNumber.sort(Comparator.comparingLong(q -> (Long) q.get(3)));
            final List<Long> rowsFrame = new ArrayList<>();
            for (int i = 0; i < byNumber.size(); i++) {
                final List<Object> q = byNumber.get(i);
                assertThat(q.get(3)).isEqualTo((long) i + 1);
                if (i > 0) {
                    assertThat(compareOrder(byNumber.get(i - 1).get(1), q.get(1))).isLessThanOrEqualTo(0);
                }
                if (q.get(2) != null) {
                    rowsFrame.add((Long) q.get(2));
                }
                if (q == r) {
                    assertThat(nullableSum(rowsFrame, r.get(12))).as("SUM ROWS of %s", r).isTrue();
                }
            }
        }
    }

    /** Ascending with NULLs last, NULLs equal. */
    private static int compareOrder(final Object a, final Object b) {
        if (a == null || b == null) {
            return a == null && b == null ? 0 : a == null ? 1 : -1;
        }
        return Long.compare((Long) a, (Long) b);
    }

    private static boolean nullableSum(final List<Long> values, final Object actual) {
        if (values.isEmpty()) {
            return actual == null;
        }
        return actual != null && decimal(actual).compareTo(BigDecimal.valueOf(
                values.stream().mapToLong(Long::longValue).sum())) == 0;
    }

    private static BigDecimal decimal(final Object v) {
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }

    private static List<List<Object>> sortedBy(final List<List<Object>> rows, final int column) {
        final List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparingLong(r -> (Long) r.get(column)));
        return out;
    }

    private static List<Object> column(final List<List<Object>> rows, final int c) {
        final List<Object> out = new ArrayList<>();
        for (final List<Object> r : rows) {
            out.add(r.get(c));
        }
        return Arrays.asList(out.toArray());
    }
}
