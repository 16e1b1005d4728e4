package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;

/**
 * {@code CASE WHEN condition THEN a ELSE b END} over exact numbers (scales aligned), doubles,
 * dates or strings. A row takes {@code a} only where the condition is TRUE: where it is FALSE or
 * NULL it takes {@code b}, so that a chain of CASEs tries the next branch. The result is NULL where
 * the branch it takes is; a missing ELSE ({@code otherwise} null) is NULL.
 */
public record CaseWhen(Expr condition, Expr then, Expr otherwise) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator c = condition.bind(input);
        if (c.type().kind() != DataType.Kind.BOOLEAN) {
            throw new IllegalArgumentException(this + ": " + condition + " is not a predicate");
        }
        final Evaluator a0 = then.bind(input);
        final Evaluator b0 = otherwise == null ? Literal.ofNull(a0.type()).bind(input) : otherwise.bind(input);
        final DataType.Kind ka = a0.type().kind();
        final DataType.Kind kb = b0.type().kind();
        if (ka == DataType.Kind.STRING || kb == DataType.Kind.STRING) {
            requireSame(a0, b0, DataType.Kind.STRING);
            return new Strings(c, a0, b0);
        }
        if (ka == DataType.Kind.DATE || kb == DataType.Kind.DATE) {
            requireSame(a0, b0, DataType.Kind.DATE);
            return new Longs(DataType.DATE, c, a0, b0);
        }
        if (ka == DataType.Kind.DOUBLE || kb == DataType.Kind.DOUBLE) {
            return new Longs(DataType.DOUBLE, c, asDouble(then, a0, input), asDouble(otherwise, b0, input));
        }
        if (a0.type().isWide() || b0.type().isWide()) {
            if (!Decimal128Values.takes(a0) || !Decimal128Values.takes(b0)) {
                throw new IllegalArgumentException(this + ": the branches have types " + a0.type() + " and "
                        + b0.type() + ", expected numbers to meet a 128-bit decimal");
            }
            final int scale = Math.max(Scales.scale(a0.type()), Scales.scale(b0.type()));
            return new Wide(scale, c, a0, b0);
        }
        Scales.requireNumeric(a0, toString(), false);
        Scales.requireNumeric(b0, toString(), false);
        final boolean decimal = ka == DataType.Kind.DECIMAL || kb == DataType.Kind.DECIMAL;
        final int scale = Math.max(Scales.scale(a0.type()), Scales.scale(b0.type()));
        return new Longs(decimal ? DataType.decimal(scale) : DataType.INT64, c, Scales.rescale(a0, scale),
                Scales.rescale(b0, scale));
    }

    private void requireSame(final Evaluator a, final Evaluator b, final DataType.Kind kind) {
        if (a.type().kind() != kind || b.type().kind() != kind) {
            throw new IllegalArgumentException(this + ": the branches have types " + a.type() + " and " + b.type()
                    + ", expected both " + kind.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** A branch as DOUBLE: itself when it is one, else its exact value converted. */
    private Evaluator asDouble(final Expr branch, final Evaluator bound, final RowType input) {
        if (bound.type().kind() == DataType.Kind.DOUBLE) {
            return bound;
        }
        if (branch == null || Literal.isNullLiteral(branch)) {
            return Literal.ofNull(DataType.DOUBLE).bind(input);
        }
        Scales.requireNumeric(bound, toString(), false);
        return new DoubleArithmetic(DoubleArithmetic.Op.ADD, branch, Expr.lit(0)).bind(input);
    }

    /** The NULL rows of a CASE over a batch, into {@code scratch}; null when neither branch has NULLs. */
    private static long[] branchNulls(final Evaluator c, final Evaluator a, final Evaluator b, final long[] scratch,
                                      final Batch batch) {
        final long[] x = a.nulls(batch);
        final long[] y = b.nulls(batch);
        if (x == null && y == null) {
            return null;
        }
        return chosenNulls(c.trues(batch), x, y, scratch, batch.rowCount());
    }

    /** The NULL rows of the taken branches, into {@code scratch}; null when neither branch has NULLs. */
    private static long[] chosenNulls(final boolean[] when, final long[] x, final long[] y, final long[] scratch,
                                      final int n) {
        if (x == null && y == null) {
            return null;
        }
        final int words = NullMask.words(n);
        for (int w = 0; w < words; w++) {
            scratch[w] = 0;
        }
        boolean any = false;
        for (int i = 0; i < n; i++) {
            final long[] m = when[i] ? x : y;
            if (m != null && NullMask.isNull(m, i)) {
                NullMask.setNull(scratch, i);
                any = true;
            }
        }
        return any ? scratch : null;
    }

    @Override
    public String toString() {
        return "CASE WHEN " + condition + " THEN " + then + (otherwise == null ? "" : " ELSE " + otherwise) + " END";
    }

    /** A bound CASE: its condition, its branches, and the NULL rows of the branches it takes. */
    private abstract class Bound extends Evaluator {
        final Evaluator c;
        final Evaluator a;
        final Evaluator b;
        private final long[] nullRows = new long[NullRows.WORDS];

        Bound(final DataType type, final Evaluator c, final Evaluator a, final Evaluator b) {
            super(type);
            this.c = c;
            this.a = a;
            this.b = b;
        }

        @Override
        public final long[] nulls(final Batch batch) {
            return branchNulls(c, a, b, nullRows, batch);
        }

        @Override
        public final String toString() {
            return CaseWhen.this.toString();
        }
    }

    /** A CASE whose values are longs: exact numbers, dates, DOUBLE bits. */
    private final class Longs extends Bound {
        private final long[] out = new long[MAX_ROWS];

        Longs(final DataType type, final Evaluator c, final Evaluator a, final Evaluator b) {
            super(type, c, a, b);
        }

        @Override
        public long[] longs(final Batch batch) {
            final boolean[] when = c.trues(batch);
            final long[] x = a.longs(batch);
            final long[] y = b.longs(batch);
            final int n = batch.rowCount();
            for (int i = 0; i < n; i++) {
                out[i] = when[i] ? x[i] : y[i];
            }
            return out;
        }
    }

    /** A CASE whose values are 128-bit decimals (a branch is a SUM). */
    private final class Wide extends Bound {
        private final Decimal128Values x;
        private final Decimal128Values y;
        private final long[] high = new long[MAX_ROWS];
        private final long[] low = new long[MAX_ROWS];

        Wide(final int scale, final Evaluator c, final Evaluator a, final Evaluator b) {
            super(DataType.decimal128(scale), c, a, b);
            this.x = new Decimal128Values(a, scale, CaseWhen.this.toString());
            this.y = new Decimal128Values(b, scale, CaseWhen.this.toString());
        }

        @Override
        public long[] highs(final Batch batch) {
            final boolean[] when = c.trues(batch);
            x.read(batch);
            y.read(batch);
            final int n = batch.rowCount();
            for (int i = 0; i < n; i++) {
                high[i] = when[i] ? x.high()[i] : y.high()[i];
                low[i] = when[i] ? x.low()[i] : y.low()[i];
            }
            return high;
        }

        @Override
        public long[] lows(final Batch batch) {
            return low;
        }
    }

    /** A CASE whose values are strings: a new vector of the taken branches' strings per batch. */
    private final class Strings extends Bound {
        Strings(final Evaluator c, final Evaluator a, final Evaluator b) {
            super(DataType.STRING, c, a, b);
        }

        @Override
        public StringVector strings(final Batch batch) {
            final boolean[] when = c.trues(batch);
            final StringVector x = a.strings(batch);
            final StringVector y = b.strings(batch);
            final int n = batch.rowCount();
            long total = 0;
            for (int i = 0; i < n; i++) {
                total += when[i] ? x.length(i) : y.length(i);
            }
            final byte[] bytes = new byte[Math.toIntExact(total)];
            final int[] offsets = new int[n + 1];
            int pos = 0;
            for (int i = 0; i < n; i++) {
                final StringVector from = when[i] ? x : y;
                final int len = from.length(i);
                System.arraycopy(from.bytes(), from.offset(i), bytes, pos, len);
                pos += len;
                offsets[i + 1] = pos;
            }
            final long[] xn = a.nulls(batch);
            final long[] yn = b.nulls(batch);
            final long[] m = xn == null && yn == null ? null : chosenNulls(when, xn, yn, new long[NullRows.WORDS], n);
            return StringVector.plain(offsets, bytes, n, m);
        }
    }
}
