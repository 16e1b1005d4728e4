package io.sluice.engine.expr;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.WithNull;

/**
 * Comparisons of int columns (stored as ints, compared without widening) with constants inside
 * and outside the int range, with each other and with long columns, for every operator, against
 * the same comparison of longs in plain Java; NULL rows (whose stored value is anything) stay NULL.
 */
class ComparisonPropertiesTest {
    private static final RowType TYPE = new RowType(List.of("v", "w", "x"),
            List.of(DataType.INT32, DataType.INT32, DataType.INT64));

    @Provide
    Arbitrary<Integer> value() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.integers()),
                Tuple.of(4, Arbitraries.integers().between(-3, 3)),
                Tuple.of(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1,
                        Integer.MAX_VALUE)));
    }

    @Provide
    Arbitrary<Long> constant() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().map(i -> (long) i)),
                Tuple.of(3, Arbitraries.longs().between(-3, 3)),
                Tuple.of(2, Arbitraries.longs()),
                Tuple.of(2, Arbitraries.of((long) Integer.MIN_VALUE - 1, (long) Integer.MIN_VALUE,
                        (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1, Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    private static boolean expected(final Comparison.Op op, final long a, final long b) {
        return op.test(Long.compare(a, b));
    }

    /** A NULL bitmap of the null values, or null when none is. */
    private static long[] nulls(final List<Integer> values) {
        long[] nulls = null;
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                nulls = nulls == null ? new long[NullMask.words(values.size())] : nulls;
                NullMask.setNull(nulls, i);
            }
        }
        return nulls;
    }

    private static IntVector ints(final List<Integer> values, final int garbage) {
        final int[] v = new int[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i) == null ? garbage : values.get(i);
        }
        return new IntVector(ColumnType.INT32, v, v.length, nulls(values));
    }

    private static LongVector longs(final List<Integer> values, final long garbage) {
        final long[] v = new long[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i) == null ? garbage : values.get(i) * 3L;
        }
        return new LongVector(ColumnType.INT64, v, v.length, nulls(values));
    }

    private static Expr compare(final Comparison.Op op, final Expr a, final Expr b) {
        return new Comparison(op, a, b);
    }

    private static void check(final Evaluator e, final Batch batch, final List<Integer> left, final List<Integer> right,
                              final Long constant, final boolean constantLeft, final Comparison.Op op) {
        final boolean[] got = e.bools(batch);
        final long[] gotNulls = e.nulls(batch);
        final boolean[] trues = e.trues(batch);
        for (int i = 0; i < left.size(); i++) {
            final Integer l = left.get(i);
            final Long r = constant != null ? constant : right.get(i) == null ? null : (long) right.get(i);
            final boolean isNull = l == null || r == null;
            assertThat(gotNulls != null && NullMask.isNull(gotNulls, i)).as("row %d NULL", i).isEqualTo(isNull);
            if (!isNull) {
                final boolean want = constantLeft ? expected(op, r, l) : expected(op, l, r);
                assertThat(got[i]).as("row %d: %s %s %s", i, l, op, r).isEqualTo(want);
            }
            assertThat(trues[i]).as("row %d TRUE", i).isEqualTo(!isNull && got[i]);
        }
    }

    @Property(tries = 1000)
    void anIntColumnAgainstAConstantIsTheLongComparison(
            @ForAll @Size(min = 1, max = 40) final List<@WithNull(0.1) @From("value") Integer> values,
            @ForAll("constant") final long c, @ForAll final Comparison.Op op, @ForAll final int garbage) {
        final Batch batch = Batch.of(ints(values, garbage), ints(values, garbage), longs(values, 0));
        check(compare(op, col("v"), lit(c)).bind(TYPE), batch, values, null, c, false, op);
        check(compare(op, lit(c), col("v")).bind(TYPE), batch, values, null, c, true, op);
    }

    @Property(tries = 1000)
    void columnsAgainstColumnsAreTheLongComparison(
            @ForAll @Size(min = 1, max = 40) final List<@WithNull(0.1) @From("value") Integer> left,
            @ForAll @Size(min = 40, max = 40) final List<@WithNull(0.1) @From("value") Integer> right,
            @ForAll final Comparison.Op op, @ForAll final int garbage) {
        final List<Integer> r = new ArrayList<>(right.subList(0, left.size()));
        final Batch batch = Batch.of(ints(left, garbage), ints(r, garbage), longs(r, garbage));
        check(compare(op, col("v"), col("w")).bind(TYPE), batch, left, r, null, false, op);
        // x holds 3 * r: an int column against a long one, compared as longs.
        final Evaluator mixed = compare(op, col("v"), col("x")).bind(TYPE);
        final boolean[] got = mixed.bools(batch);
        for (int i = 0; i < left.size(); i++) {
            if (left.get(i) != null && r.get(i) != null) {
                assertThat(got[i]).isEqualTo(expected(op, left.get(i), r.get(i) * 3L));
            }
        }
    }
}
