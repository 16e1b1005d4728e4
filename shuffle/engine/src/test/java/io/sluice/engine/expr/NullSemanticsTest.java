package io.sluice.engine.expr;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * SQL NULL semantics of expressions, checked against a reference written here over nullable Java
 * values: every combination of TRUE, FALSE and NULL for the connectives, NULL propagation through
 * arithmetic, comparisons and functions, CASE branches, and inputs without NULLs keeping no bitmap.
 */
class NullSemanticsTest {
    private static final RowType ABC = new RowType(List.of("a", "b", "c", "s", "d"),
            List.of(DataType.INT64, DataType.INT64, DataType.INT64, DataType.STRING, DataType.DATE));

    /** A column of nullable longs. */
    private static LongVector longs(final Long... values) {
        final long[] v = new long[values.length];
        long[] nulls = null;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                nulls = nulls == null ? new long[NullMask.words(values.length)] : nulls;
                NullMask.setNull(nulls, i);
                v[i] = Long.MAX_VALUE - i; // garbage under a NULL row: it must not overflow anything
            } else {
                v[i] = values[i];
            }
        }
        return new LongVector(ColumnType.INT64, v, v.length, nulls);
    }

    private static IntVector dates(final String... isoDates) {
        final int[] v = new int[isoDates.length];
        long[] nulls = null;
        for (int i = 0; i < isoDates.length; i++) {
            if (isoDates[i] == null) {
                nulls = nulls == null ? new long[NullMask.words(isoDates.length)] : nulls;
                NullMask.setNull(nulls, i);
            } else {
                v[i] = (int) LocalDate.parse(isoDates[i]).toEpochDay();
            }
        }
        return new IntVector(ColumnType.DATE, v, v.length, nulls);
    }

    /** A batch of columns a, b, c (nullable longs), s (strings) and d (dates) of equal length. */
    private static Batch batch(final List<Long> a, final List<Long> b, final List<Long> c) {
        final String[] s = new String[a.size()];
        final String[] d = new String[a.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = a.get(i) == null ? null : "x" + a.get(i);
            d[i] = a.get(i) == null ? null : LocalDate.of(1990 + (int) (long) a.get(i), 1 + i % 12, 1).toString();
        }
        return Batch.of(longs(a.toArray(new Long[0])), longs(b.toArray(new Long[0])), longs(c.toArray(new Long[0])),
                StringVector.of(s), dates(d));
    }

    /** TRUE (1), FALSE (0), NULL as an INT64 column value that {@code x = 1} turns into a truth value. */
    private static final Long[] TRUTH = {1L, 0L, null};

    /** Every combination of three truth values, one row each. */
    private static Batch allTruthCombinations() {
        final List<Long> a = new ArrayList<>();
        final List<Long> b = new ArrayList<>();
        final List<Long> c = new ArrayList<>();
        for (final Long x : TRUTH) {
            for (final Long y : TRUTH) {
                for (final Long z : TRUTH) {
                    a.add(x);
                    b.add(y);
                    c.add(z);
                }
            }
        }
        return batch(a, b, c);
    }

    private static Boolean truth(final Long v) {
        return v == null ? null : v == 1;
    }

    /** Kleene AND: FALSE wins, then NULL. */
    private static Boolean and(final Boolean x, final Boolean y) {
        if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) {
            return false;
        }
        return x == null || y == null ? null : true;
    }

    /** Kleene OR: TRUE wins, then NULL. */
    private static Boolean or(final Boolean x, final Boolean y) {
        if (Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y)) {
            return true;
        }
        return x == null || y == null ? null : false;
    }

    /** The three-valued result of a predicate per row: TRUE, FALSE or NULL (null). */
    private static List<Boolean> evaluate(final Expr predicate, final Batch batch) {
        final Evaluator e = predicate.bind(ABC);
        final boolean[] values = e.bools(batch);
        final long[] nulls = e.nulls(batch);
        final boolean[] trues = e.trues(batch);
        final List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < batch.rowCount(); i++) {
            final boolean isNull = nulls != null && NullMask.isNull(nulls, i);
            assertThat(trues[i]).as("trues at row %d of %s", i, predicate).isEqualTo(!isNull && values[i]);
            out.add(isNull ? null : values[i]);
        }
        return out;
    }

    private static List<Boolean> reference(final Batch batch, final int columns, final BinaryOperator<Boolean> op) {
        final List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < batch.rowCount(); i++) {
            Boolean acc = truth(value(batch, 0, i));
            for (int c = 1; c < columns; c++) {
                acc = op.apply(acc, truth(value(batch, c, i)));
            }
            out.add(acc);
        }
        return out;
    }

    private static Long value(final Batch batch, final int column, final int row) {
        final LongVector v = (LongVector) batch.column(column);
        return v.isNull(row) ? null : v.get(row);
    }

    private static Expr isTrue(final String column) {
        return Expr.eq(col(column), lit(1));
    }

    @Test
    void andOrAndNotAreThreeValuedOverEveryCombination() {
        final Batch rows = allTruthCombinations();
        assertThat(evaluate(Expr.and(isTrue("a"), isTrue("b")), rows)).isEqualTo(reference(rows, 2, NullSemanticsTest::and));
        assertThat(evaluate(Expr.or(isTrue("a"), isTrue("b")), rows)).isEqualTo(reference(rows, 2, NullSemanticsTest::or));
        assertThat(evaluate(Expr.and(isTrue("a"), isTrue("b"), isTrue("c")), rows))
                .isEqualTo(reference(rows, 3, NullSemanticsTest::and));
        assertThat(evaluate(Expr.or(isTrue("a"), isTrue("b"), isTrue("c")), rows))
                .isEqualTo(reference(rows, 3, NullSemanticsTest::or));
        final List<Boolean> notA = new ArrayList<>();
        final List<Boolean> nested = new ArrayList<>();
        for (int i = 0; i < rows.rowCount(); i++) {
            final Boolean a = truth(value(rows, 0, i));
            notA.add(a == null ? null : !a);
            nested.add(or(and(a, truth(value(rows, 1, i))), a == null ? null : !a));
        }
        assertThat(evaluate(Expr.not(isTrue("a")), rows)).isEqualTo(notA);
        assertThat(evaluate(Expr.or(Expr.and(isTrue("a"), isTrue("b")), Expr.not(isTrue("a"))), rows)).isEqualTo(nested);
    }

    @Test
    void deeplyNestedConnectivesStayThreeValued() {
        final Batch rows = allTruthCombinations();
        Expr e = isTrue("a");
        final List<Boolean> expected = new ArrayList<>(reference(rows, 1, NullSemanticsTest::and));
        for (int level = 0; level < 24; level++) {
            final boolean and = level % 2 == 0;
            final String other = level % 3 == 0 ? "b" : "c";
            e = and ? Expr.and(e, isTrue(other)) : Expr.or(e, isTrue(other));
            for (int i = 0; i < expected.size(); i++) {
                final Boolean o = truth(value(rows, other.equals("b") ? 1 : 2, i));
                expected.set(i, and ? and(expected.get(i), o) : or(expected.get(i), o));
            }
        }
        assertThat(evaluate(e, rows)).isEqualTo(expected);
    }

    @Test
    void arithmeticAndComparisonsAreNullWhereAnOperandIs() {
        final Batch rows = batch(java.util.Arrays.asList(1L, null, 3L, null), java.util.Arrays.asList(2L, 5L, null, null),
                java.util.Arrays.asList(0L, 0L, 0L, 0L));
        for (final Expr e : List.of(Expr.add(col("a"), col("b")), Expr.sub(col("a"), col("b")),
                Expr.mul(col("a"), col("b")), Expr.div(col("a"), col("b")), Expr.add(col("a"), Expr.dec("1.5")))) {
            final Evaluator ev = e.bind(ABC);
            final long[] values = ev.longs(rows);
            final long[] nulls = ev.nulls(rows);
            for (int i = 0; i < 4; i++) {
                final boolean expectNull = value(rows, 0, i) == null || (value(rows, 1, i) == null && e.toString().contains("b"));
                assertThat(nulls != null && NullMask.isNull(nulls, i)).as("%s row %d", e, i).isEqualTo(expectNull);
            }
            assertThat(values).isNotNull();
        }
        final List<Boolean> lt = evaluate(Expr.lt(col("a"), col("b")), rows);
        assertThat(lt).containsExactly(true, null, null, null);
        assertThat(evaluate(Expr.lt(col("a"), lit(2)), rows)).containsExactly(true, null, false, null);
        assertThat(evaluate(Expr.ne(col("s"), str("x3")), rows)).containsExactly(true, null, false, null);
        assertThat(evaluate(Expr.eq(col("a"), Expr.nullOf(DataType.INT64)), rows)).containsExactly(null, null, null, null);
        assertThat(evaluate(Expr.lt(col("a"), Expr.div(col("b"), lit(1))), rows)).containsExactly(true, null, null, null);
    }

    @Test
    void overflowUnderANullRowDoesNotThrowButElsewhereDoes() {
        final Batch rows = batch(java.util.Arrays.asList(null, 2L), java.util.Arrays.asList(3L, 3L),
                java.util.Arrays.asList(0L, 0L));
        // row 0's value is Long.MAX_VALUE under its NULL bit
        final Evaluator product = Expr.mul(Expr.add(col("a"), lit(1)), col("b")).bind(ABC);
        assertThat(product.longs(rows)[1]).isEqualTo(9);
        assertThat(NullMask.isNull(product.nulls(rows), 0)).isTrue();
        final Evaluator rescaled = Expr.add(col("a"), Expr.dec("0.01")).bind(ABC);
        assertThat(rescaled.longs(rows)[1]).isEqualTo(201);
        final Batch big = batch(List.of(Long.MAX_VALUE), List.of(3L), List.of(0L));
        assertThatThrownBy(() -> product.longs(big)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void inputsWithoutNullsHaveNoBitmap() {
        final Batch rows = batch(List.of(1L, 2L), List.of(3L, 4L), List.of(0L, 1L));
        for (final Expr e : List.of(Expr.add(col("a"), col("b")), Expr.div(col("a"), col("b")),
                Expr.and(isTrue("a"), Expr.or(isTrue("b"), isTrue("c"))), Expr.not(isTrue("a")),
                Expr.in(col("a"), lit(1), lit(5)), Expr.like(col("s"), "x%"), Expr.substring(col("s"), 1, 1),
                Expr.year(col("d")), Expr.caseWhen(isTrue("c"), col("a"), col("b")), Expr.isNull(col("a")),
                Expr.coalesce(col("a"), col("b")))) {
            final Evaluator ev = e.bind(ABC);
            switch (ev.type().kind()) {
                case BOOLEAN -> ev.bools(rows);
                case STRING -> ev.strings(rows);
                default -> ev.longs(rows);
            }
            assertThat(ev.nulls(rows)).as("%s", e).isNull();
        }
    }

    @Test
    void caseTakesABranchOnlyWhereItsConditionIsTrue() {
        // condition c = 1 is TRUE, FALSE, NULL; branches a and b, NULL in some rows
        final Batch rows = batch(java.util.Arrays.asList(10L, 11L, 12L, null, 14L),
                java.util.Arrays.asList(20L, 21L, 22L, 23L, null),
                java.util.Arrays.asList(1L, 0L, null, 1L, 0L));
        final Evaluator chosen = Expr.caseWhen(isTrue("c"), col("a"), col("b")).bind(ABC);
        final List<Long> values = nullable(chosen, rows);
        assertThat(values).containsExactly(10L, 21L, 22L, null, null);
        assertThat(nullable(Expr.caseWhen(isTrue("c"), col("a")).bind(ABC), rows)).containsExactly(10L, null, null, null, null);
        assertThat(nullable(Expr.caseWhen(isTrue("c"), Expr.nullOf(DataType.INT64), col("b")).bind(ABC), rows))
                .containsExactly(null, 21L, 22L, null, null);
        assertThat(nullable(Expr.coalesce(col("a"), col("b"), lit(-1)).bind(ABC), rows))
                .containsExactly(10L, 11L, 12L, 23L, 14L);
        assertThat(nullable(Expr.nullIf(col("c"), lit(0)).bind(ABC), rows)).containsExactly(1L, null, null, 1L, null);
        final StringVector strings = Expr.caseWhen(isTrue("c"), col("s"), str("none")).bind(ABC).strings(rows);
        assertThat(strings.getString(0)).isEqualTo("x10");
        assertThat(strings.getString(1)).isEqualTo("none");
        assertThat(strings.getString(2)).isEqualTo("none");
        assertThat(strings.isNull(3)).isTrue();
        final Evaluator coalesced = Expr.coalesce(col("s"), str("?")).bind(ABC);
        assertThat(coalesced.strings(rows).getString(3)).isEqualTo("?");
        assertThat(coalesced.nulls(rows)).isNull();
        final Evaluator day = Expr.coalesce(col("d"), Expr.date("2000-01-01")).bind(ABC);
        assertThat(day.type()).isEqualTo(DataType.DATE);
        assertThat(day.longs(rows)[3]).isEqualTo(LocalDate.parse("2000-01-01").toEpochDay());
    }

    private static List<Long> nullable(final Evaluator e, final Batch batch) {
        final long[] v = e.longs(batch);
        final long[] nulls = e.nulls(batch);
        final List<Long> out = new ArrayList<>();
        for (int i = 0; i < batch.rowCount(); i++) {
            out.add(nulls != null && NullMask.isNull(nulls, i) ? null : v[i]);
        }
        return out;
    }

    @Test
    void nullTestsInListsAndFunctionsOfNull() {
        final Batch rows = batch(java.util.Arrays.asList(1L, null, 3L), java.util.Arrays.asList(1L, 1L, 1L),
                java.util.Arrays.asList(0L, 0L, 0L));
        assertThat(evaluate(Expr.isNull(col("a")), rows)).containsExactly(false, true, false);
        assertThat(evaluate(Expr.isNotNull(col("a")), rows)).containsExactly(true, false, true);
        assertThat(evaluate(Expr.isNull(Expr.add(col("b"), col("a"))), rows)).containsExactly(false, true, false);
        assertThat(evaluate(Expr.isNull(Expr.and(isTrue("a"), isTrue("b"))), rows)).containsExactly(false, true, false);
        assertThat(evaluate(Expr.in(col("a"), lit(1), lit(2)), rows)).containsExactly(true, null, false);
        assertThat(evaluate(Expr.in(col("a"), lit(1), Expr.nullOf(DataType.INT64)), rows)).containsExactly(true, null, null);
        assertThat(evaluate(Expr.not(Expr.in(col("s"), str("x3"), Expr.nullOf(DataType.STRING))), rows))
                .containsExactly(null, null, false);
        assertThat(evaluate(Expr.like(col("s"), "x%"), rows)).containsExactly(true, null, true);
        assertThat(evaluate(Expr.isNull(Expr.substring(col("s"), 1, 1)), rows)).containsExactly(false, true, false);
        assertThat(evaluate(Expr.isNull(Expr.year(col("d"))), rows)).containsExactly(false, true, false);
        assertThat(evaluate(Expr.isNull(Expr.nullOf(DataType.STRING)), rows)).containsExactly(true, true, true);
        assertThat(evaluate(Expr.and(Expr.nullOf(DataType.BOOLEAN), isTrue("b")), rows)).containsExactly(null, null, null);
        assertThat(evaluate(Expr.or(Expr.nullOf(DataType.BOOLEAN), isTrue("b")), rows)).containsExactly(true, true, true);
    }
}
