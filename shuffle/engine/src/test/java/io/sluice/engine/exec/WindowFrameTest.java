package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Window frames with offsets ({@link FrameBounds}, {@link FrameAggregation}): the operator's values
 * compared with each frame evaluated naively, row by row, from SQL's definition of its bounds.
 */
class WindowFrameTest {
    private static final RowType INPUT = new RowType(List.of("p", "o", "v", "w"),
            List.of(DataType.INT64, DataType.INT64, DataType.INT64, DataType.DOUBLE));
    private static final int P = 0;
    private static final int O = 1;
    private static final int V = 2;
    private static final int W = 3;
    private static final int RN = 4;

    private static List<WindowFunction> functions(final WindowFrame frame) {
        return List.of(
                WindowFunction.ranking(WindowFunctionType.ROW_NUMBER, "rn"),
                WindowFunction.aggregate(WindowFunctionType.SUM, col("v"), frame, "sum"),
                WindowFunction.aggregate(WindowFunctionType.COUNT, col("v"), frame, "cnt"),
                WindowFunction.aggregate(WindowFunctionType.COUNT_STAR, null, frame, "cs"),
                WindowFunction.aggregate(WindowFunctionType.MIN, col("v"), frame, "mn"),
                WindowFunction.aggregate(WindowFunctionType.MAX, col("v"), frame, "mx"),
                WindowFunction.aggregate(WindowFunctionType.AVG, col("v"), frame, "avg"),
                WindowFunction.aggregate(WindowFunctionType.SUM, col("w"), frame, "dsum"));
    }

    private static List<List<Object>> run(final List<Object[]> rows, final SortKey order, final WindowFrame frame,
                                          final boolean partitioned, final int workers, final Random random) {
        final Window window = new Window(INPUT, List.of("p"), List.of(order), functions(frame), partitioned);
        final List<Window.Rows> locals = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            locals.add(window.createLocal());
        }
        final List<List<Object[]>> byWorker = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            byWorker.add(new ArrayList<>());
        }
        int i = 0;
        for (final Object[] r : rows) {
            // Whole partitions per worker when partitioned, as a shuffle on the partition key gives them.
            byWorker.get(partitioned ? Math.floorMod(Objects.hashCode(r[P]), workers) : i++ % workers).add(r);
        }
        for (int w = 0; w < workers; w++) {
            RowsWithNulls.batches(INPUT, byWorker.get(w), random).forEach(locals.get(w)::accept);
        }
        locals.forEach(window::combine);
        window.finish();
        final Source out = window.output();
        final List<Batch> batches = new ArrayList<>();
        final Source.Reader reader = out.openReader();
        for (int m = 0; m < out.morselCount(); m++) {
            reader.produce(m, batches::add);
        }
        return new QueryResult(window.outputType(), batches).rows();
    }

    @Test
    void rowsFramesSlideOverTheRowsAroundEachRow() {
        final List<Object[]> rows = new ArrayList<>();
        for (long o = 1; o <= 5; o++) {
            rows.add(new Object[] {1L, o, o * 10, Double.doubleToRawLongBits(o)});
        }
        final WindowFrame frame = WindowFrame.of(WindowFrame.Unit.ROWS, FrameBound.preceding(1),
                FrameBound.following(1));
        final List<List<Object>> out = byRowNumber(run(rows, SortKey.asc("o"), frame, false, 1, new Random(1)));
        assertThat(out).extracting(r -> ((BigDecimal) r.get(5)).longValueExact())
                .containsExactly(30L, 60L, 90L, 120L, 90L);
        assertThat(out).extracting(r -> r.get(8)).containsExactly(10L, 10L, 20L, 30L, 40L);
        assertThat(out).extracting(r -> r.get(9)).containsExactly(20L, 30L, 40L, 50L, 50L);
    }

    @Test
    void aFrameWhollyBeforeTheRowIsEmptyAtThePartitionsStart() {
        final List<Object[]> rows = List.of(new Object[] {1L, 1L, 5L, 0L}, new Object[] {1L, 2L, 7L, 0L});
        final WindowFrame frame = WindowFrame.of(WindowFrame.Unit.ROWS, FrameBound.preceding(2),
                FrameBound.preceding(1));
        final List<List<Object>> out = byRowNumber(run(rows, SortKey.asc("o"), frame, false, 1, new Random(2)));
        assertThat(out.get(0).get(5)).as("SUM of no rows").isNull();
        assertThat(out.get(0).get(6)).as("COUNT of no rows").isEqualTo(0L);
        assertThat(out.get(1).get(8)).as("MIN of the row before").isEqualTo(5L);
    }

    @Test
    void aRangeOffsetNeedsOneIntegerDecimalOrDateKey() {
        final WindowFrame frame = WindowFrame.of(WindowFrame.Unit.RANGE, FrameBound.preceding(1),
                FrameBound.CURRENT_ROW);
        assertThatThrownBy(() -> new Window(INPUT, List.of(), List.of(SortKey.asc("w")), functions(frame), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a RANGE frame with an offset needs an integer, decimal or date ORDER BY key,"
                        + " got w of type");
        assertThatThrownBy(() -> new Window(INPUT, List.of(), List.of(SortKey.asc("o"), SortKey.asc("v")),
                functions(frame), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs exactly one ORDER BY key, got 2");
    }

    @Property(tries = 200)
    void everyFrameMatchesItsBoundsEvaluatedRowByRow(@ForAll final long seed) {
        final Random random = new Random(seed);
        final int n = random.nextInt(200);
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final double w = random.nextInt(10) == 0 ? 1e12 * random.nextInt(5) : random.nextInt(2001) / 8.0 - 125;
            rows.add(new Object[] {random.nextInt(8) == 0 ? null : (long) random.nextInt(4),
                random.nextInt(8) == 0 ? null : (long) random.nextInt(12),
                random.nextInt(5) == 0 ? null : (long) random.nextInt(41) - 20,
                random.nextInt(6) == 0 ? null : Double.doubleToRawLongBits(w)});
        }
        final WindowFrame frame = randomFrame(random);
        final SortKey order = new SortKey("o", random.nextBoolean(), random.nextBoolean());
        final boolean partitioned = random.nextBoolean();
        final List<List<Object>> out = run(rows, order, frame, partitioned, 1 + random.nextInt(3), random);
        assertThat(out).hasSize(n);
        for (final List<Object> r : out) {
            // The partition in the operator's window order, which ROW_NUMBER gives (ROWS frames depend on it).
            final List<List<Object>> partition = new ArrayList<>();
            for (final List<Object> q : out) {
                if (Objects.equals(q.get(P), r.get(P))) {
                    partition.add(q);
                }
            }
            partition.sort(Comparator.comparingLong(q -> (Long) q.get(RN)));
            final int at = partition.indexOf(r);
            final List<Long> values = new ArrayList<>();
            final List<Double> doubles = new ArrayList<>();
            long framed = 0;
            for (int j = 0; j < partition.size(); j++) {
                final List<Object> q = partition.get(j);
                final boolean in = frame.unit() == WindowFrame.Unit.ROWS ? inRows(frame, at, j)
                        : inRange(frame, order, r.get(O), q.get(O));
                if (!in) {
                    continue;
                }
                framed++;
                if (q.get(V) != null) {
                    values.add((Long) q.get(V));
                }
                if (q.get(W) != null) {
                    doubles.add((Double) q.get(W));
                }
            }
            final String what = frame + " ORDER BY " + order + " of " + r;
            if (values.isEmpty()) {
                assertThat(r.get(5)).as("SUM %s", what).isNull();
                assertThat(r.get(10)).as("AVG %s", what).isNull();
            } else {
                final long sum = values.stream().mapToLong(Long::longValue).sum();
                assertThat((BigDecimal) r.get(5)).as("SUM %s", what).isEqualByComparingTo(BigDecimal.valueOf(sum));
                assertThat((Double) r.get(10)).as("AVG %s", what)
                        .isCloseTo(sum / (double) values.size(), org.assertj.core.data.Offset.offset(1e-9));
            }
            assertThat(r.get(6)).as("COUNT %s", what).isEqualTo((long) values.size());
            assertThat(r.get(7)).as("COUNT(*) %s", what).isEqualTo(framed);
            assertThat(r.get(8)).as("MIN %s", what).isEqualTo(values.stream().min(Long::compare).orElse(null));
            assertThat(r.get(9)).as("MAX %s", what).isEqualTo(values.stream().max(Long::compare).orElse(null));
            if (doubles.isEmpty()) {
                assertThat(r.get(11)).as("SUM of doubles %s", what).isNull();
            } else {
                double sum = 0;
                for (final double d : doubles) {
                    sum += d;
                }
                assertThat((Double) r.get(11)).as("SUM of doubles %s", what)
                        .isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-6));
            }
        }
    }

    private static WindowFrame randomFrame(final Random random) {
        final FrameBound.Kind[] kinds = FrameBound.Kind.values();
        final FrameBound start = bound(kinds[random.nextInt(kinds.length - 1)], random);
        final FrameBound end = bound(kinds[1 + random.nextInt(kinds.length - 1)], random);
        return WindowFrame.of(random.nextBoolean() ? WindowFrame.Unit.ROWS : WindowFrame.Unit.RANGE, start, end);
    }

    private static FrameBound bound(final FrameBound.Kind kind, final Random random) {
        return new FrameBound(kind, kind.hasOffset() ? random.nextInt(5) : 0);
    }

    /** Whether the row at position {@code j} of the partition is in the ROWS frame of the row at {@code at}. */
    private static boolean inRows(final WindowFrame frame, final int at, final int j) {
        final long from = switch (frame.start().kind()) {
            case UNBOUNDED_PRECEDING -> Long.MIN_VALUE;
            case PRECEDING -> at - frame.start().offset();
            case CURRENT_ROW -> at;
            case FOLLOWING -> at + frame.start().offset();
            case UNBOUNDED_FOLLOWING -> throw new IllegalStateException();
        };
        final long to = switch (frame.end().kind()) {
            case UNBOUNDED_FOLLOWING -> Long.MAX_VALUE;
            case FOLLOWING -> at + frame.end().offset();
            case CURRENT_ROW -> at;
            case PRECEDING -> at - frame.end().offset();
            case UNBOUNDED_PRECEDING -> throw new IllegalStateException();
        };
        return j >= from && j <= to;
    }

    /**
     * Whether a row with order key {@code q} is in the RANGE frame of a row with key {@code r}: at or
     * after the start and at or before the end in window order. An offset bound of a NULL key is its
     * NULL peers; a NULL key of another row is outside every offset bound's side it is not beyond.
     */
    private static boolean inRange(final WindowFrame frame, final SortKey order, final Object r, final Object q) {
        return afterStart(frame.start(), order, (Long) r, (Long) q) && beforeEnd(frame.end(), order, (Long) r, (Long) q);
    }

    private static boolean afterStart(final FrameBound b, final SortKey order, final Long r, final Long q) {
        return switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> true;
            case CURRENT_ROW -> compare(order, q, r) >= 0;
            default -> {
                if (r == null || q == null) {
                    yield compare(order, q, r) >= 0;
                }
                final long target = ahead(order, r, b.kind() == FrameBound.Kind.FOLLOWING ? b.offset() : -b.offset());
                yield order.descending() ? q <= target : q >= target;
            }
        };
    }

    private static boolean beforeEnd(final FrameBound b, final SortKey order, final Long r, final Long q) {
        return switch (b.kind()) {
            case UNBOUNDED_FOLLOWING -> true;
            case CURRENT_ROW -> compare(order, q, r) <= 0;
            default -> {
                if (r == null || q == null) {
                    yield compare(order, q, r) <= 0;
                }
                final long target = ahead(order, r, b.kind() == FrameBound.Kind.FOLLOWING ? b.offset() : -b.offset());
                yield order.descending() ? q >= target : q <= target;
            }
        };
    }

    /** The key {@code steps} ahead of {@code key} in window order. */
    private static long ahead(final SortKey order, final long key, final long steps) {
        return order.descending() ? key - steps : key + steps;
    }

    /** Window order of two keys: DESC as the key says, NULLs first or last as it says, NULLs peers. */
    private static int compare(final SortKey order, final Long a, final Long b) {
        if (a == null || b == null) {
            if (a == null && b == null) {
                return 0;
            }
            return (a == null) == order.nullsFirst() ? -1 : 1;
        }
        return order.descending() ? Long.compare(b, a) : Long.compare(a, b);
    }

    private static List<List<Object>> byRowNumber(final List<List<Object>> rows) {
        final List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparingLong(r -> (Long) r.get(RN)));
        return out;
    }
}
