package io.sluice.engine.expr;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code a op b} for exact numbers and dates (decimal scales aligned first) and for strings
 * (unsigned byte order, as DuckDB orders UTF-8). A string column compared with a constant is
 * decided once per dictionary entry when the column is dictionary-encoded. The result is NULL
 * where an operand is NULL.
 */
public record Comparison(Op op, Expr left, Expr right) implements Expr {
    /** The comparison operators. */
    public enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        private final String symbol;

        Op(final String symbol) {
            this.symbol = symbol;
        }

        /** Whether a comparison result ({@code compare(a, b)}) satisfies this operator. */
        boolean test(final int cmp) {
            return switch (this) {
                case EQ -> cmp == 0;
                case NE -> cmp != 0;
                case LT -> cmp < 0;
                case LE -> cmp <= 0;
                case GT -> cmp > 0;
                case GE -> cmp >= 0;
            };
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator a = left.bind(input);
        final Evaluator b = right.bind(input);
        if (a.type().kind() == DataType.Kind.STRING || b.type().kind() == DataType.Kind.STRING) {
            if (a.type().kind() != b.type().kind()) {
                throw new IllegalArgumentException(this + " compares " + a.type() + " with " + b.type());
            }
            if (Literal.isNullLiteral(left) || Literal.isNullLiteral(right)) {
                return Literal.ofNull(DataType.BOOLEAN).bind(input);
            }
            if (right instanceof Literal lit) {
                return new StringConstant(a, lit.string().getBytes(StandardCharsets.UTF_8));
            }
            return new Strings(a, b);
        }
        if (a.type().kind() == DataType.Kind.DOUBLE || b.type().kind() == DataType.Kind.DOUBLE) {
            if (Literal.isNullLiteral(left) || Literal.isNullLiteral(right)) {
                return Literal.ofNull(DataType.BOOLEAN).bind(input);
            }
            return DoubleValues.compare(op, a, b, toString());
        }
        if (a.type().isWide() || b.type().isWide()) {
            if (Literal.isNullLiteral(left) || Literal.isNullLiteral(right)) {
                return Literal.ofNull(DataType.BOOLEAN).bind(input);
            }
            return Decimal128Values.compare(op, a, b, toString());
        }
        if ((a.type().kind() == DataType.Kind.DATE) != (b.type().kind() == DataType.Kind.DATE)) {
            throw new IllegalArgumentException(this + " compares " + a.type() + " with " + b.type()
                    + ": compare dates with dates (write date constants with Expr.date)");
        }
        Scales.requireNumeric(a, toString(), true);
        Scales.requireNumeric(b, toString(), true);
        if (Literal.isNullLiteral(left) || Literal.isNullLiteral(right)) {
            return Literal.ofNull(DataType.BOOLEAN).bind(input);
        }
        final int scale = Math.max(Scales.scale(a.type()), Scales.scale(b.type()));
        if (right instanceof Literal lit && Scales.scale(a.type()) == scale) {
            final long factor = Scales.power(scale - Scales.scale(b.type()));
            final long c = lit.value();
            final long scaled = c * factor;
            if (scaled / factor == c) {
                return new NumberConstant(a, scaled);
            }
        }
        return new Numbers(Scales.rescale(a, scale), Scales.rescale(b, scale));
    }

    @Override
    public String toString() {
        return "(" + left + " " + op.symbol + " " + right + ")";
    }

    private final class Numbers extends Evaluator {
        private final Evaluator a;
        private final Evaluator b;
        private final boolean[] out = new boolean[MAX_ROWS];
        private final long[] nullScratch = new long[NullRows.WORDS];

        Numbers(final Evaluator a, final Evaluator b) {
            super(DataType.BOOLEAN);
            this.a = a;
            this.b = b;
        }

        @Override
        public boolean[] bools(final Batch batch) {
            final int n = batch.rowCount();
            final int[] li = a.ints(batch);
            final int[] ri = li == null ? null : b.ints(batch);
            if (ri != null) {
                compareInts(op, li, ri, n, out);
            } else {
                compareLongs(op, a.longs(batch), b.longs(batch), n, out);
            }
            return out;
        }

        @Override
        public long[] nulls(final Batch batch) {
            return NullRows.union(a.nulls(batch), b.nulls(batch), nullScratch, batch.rowCount());
        }

        @Override
        public String toString() {
            return Comparison.this.toString();
        }
    }

    /**
     * A number compared with a constant already at its scale: one loop per batch, over the int
     * values of a narrow column when its evaluator has them, without a constant column. Ints are
     * compared with the constant as an int (no widening per row); a constant outside the int range
     * gives every int row the same answer. C2 on JDK 17 compiles {@code out[i] = v[i] > k} without a
     * branch but does not vectorize it into a boolean[] (it would an int result into an int[]); a
     * shift formulation and eight results packed into one long store both measured slower.
     */
    private final class NumberConstant extends Evaluator {
        private final Evaluator a;
        private final long c;
        private final boolean fitsInt;
        private final boolean beyondInts;
        private final boolean[] out = new boolean[MAX_ROWS];

        NumberConstant(final Evaluator a, final long c) {
            super(DataType.BOOLEAN);
            this.a = a;
            this.c = c;
            this.fitsInt = (int) c == c;
            // What every int v answers for v op c when c is outside the int range (c > v for all v, or c < v).
            this.beyondInts = c > Integer.MAX_VALUE ? op == Op.NE || op == Op.LT || op == Op.LE
                    : op == Op.NE || op == Op.GT || op == Op.GE;
        }

        @Override
        public boolean[] bools(final Batch batch) {
            final int n = batch.rowCount();
            final int[] narrow = a.ints(batch);
            if (narrow == null) {
                compareLongs(op, a.longs(batch), c, n, out);
            } else if (fitsInt) {
                compareInts(op, narrow, (int) c, n, out);
            } else {
                Arrays.fill(out, 0, n, beyondInts);
            }
            return out;
        }

        @Override
        public long[] nulls(final Batch batch) {
            return a.nulls(batch);
        }

        @Override
        public String toString() {
            return Comparison.this.toString();
        }
    }

    static void compareInts(final Op op, final int[] v, final int k, final int n, final boolean[] out) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] == k;
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] != k;
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] < k;
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] <= k;
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] > k;
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] >= k;
                }
            }
        }
    }

    static void compareLongs(final Op op, final long[] v, final long k, final int n, final boolean[] out) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] == k;
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] != k;
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] < k;
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] <= k;
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] > k;
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = v[i] >= k;
                }
            }
        }
    }

    static void compareInts(final Op op, final int[] l, final int[] r, final int n, final boolean[] out) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] == r[i];
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] != r[i];
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] < r[i];
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] <= r[i];
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] > r[i];
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] >= r[i];
                }
            }
        }
    }

    static void compareLongs(final Op op, final long[] l, final long[] r, final int n, final boolean[] out) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] == r[i];
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] != r[i];
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] < r[i];
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] <= r[i];
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] > r[i];
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] >= r[i];
                }
            }
        }
    }

    private final class Strings extends Evaluator {
        private final Evaluator a;
        private final Evaluator b;
        private final boolean[] out = new boolean[MAX_ROWS];
        private final long[] nullScratch = new long[NullRows.WORDS];

        Strings(final Evaluator a, final Evaluator b) {
            super(DataType.BOOLEAN);
            this.a = a;
            this.b = b;
        }

        @Override
        public boolean[] bools(final Batch batch) {
            final StringVector l = a.strings(batch);
            final StringVector r = b.strings(batch);
            final int n = batch.rowCount();
            final byte[] lb = l.bytes();
            final byte[] rb = r.bytes();
            for (int i = 0; i < n; i++) {
                final int lo = l.offset(i);
                final int ro = r.offset(i);
                out[i] = op.test(Arrays.compareUnsigned(lb, lo, lo + l.length(i), rb, ro, ro + r.length(i)));
            }
            return out;
        }

        @Override
        public long[] nulls(final Batch batch) {
            return NullRows.union(a.nulls(batch), b.nulls(batch), nullScratch, batch.rowCount());
        }

        @Override
        public String toString() {
            return Comparison.this.toString();
        }
    }

    private final class StringConstant extends Evaluator {
        private final Evaluator a;
        private final byte[] constant;
        private final boolean[] out = new boolean[MAX_ROWS];
        private StringVector cachedDictionary;
        private boolean[] dictionaryResult;

        StringConstant(final Evaluator a, final byte[] constant) {
            super(DataType.BOOLEAN);
            this.a = a;
            this.constant = constant;
        }

        @Override
        public boolean[] bools(final Batch batch) {
            final StringVector v = a.strings(batch);
            final int n = batch.rowCount();
            if (v.isDictionary()) {
                final StringVector dict = v.dictionary();
                if (dict != cachedDictionary) {
                    dictionaryResult = new boolean[dict.rowCount()];
                    for (int d = 0; d < dictionaryResult.length; d++) {
                        dictionaryResult[d] = test(dict, d);
                    }
                    cachedDictionary = dict;
                }
                final int[] codes = v.codes();
                for (int i = 0; i < n; i++) {
                    out[i] = dictionaryResult[codes[i]];
                }
                return out;
            }
            for (int i = 0; i < n; i++) {
                out[i] = test(v, i);
            }
            return out;
        }

        private boolean test(final StringVector v, final int row) {
            final int o = v.offset(row);
            return op.test(Arrays.compareUnsigned(v.bytes(), o, o + v.length(row), constant, 0, constant.length));
        }

        @Override
        public long[] nulls(final Batch batch) {
            return a.nulls(batch);
        }

        @Override
        public String toString() {
            return Comparison.this.toString();
        }
    }
}
