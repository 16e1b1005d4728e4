package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;

/**
 * {@code a + b}, {@code a - b}, {@code a * b}, {@code a / b} computed in double precision, as
 * SQL does once a DOUBLE (an average) takes part and for every division: exact operands are
 * converted from their scaled longs first. The result is DOUBLE (raw bits in the long array).
 * Division by zero gives an infinity or NaN, as in IEEE arithmetic and as DuckDB does; the result
 * is NULL where an operand is NULL.
 */
public record DoubleArithmetic(Op op, Expr left, Expr right) implements Expr {
    /** The operators. */
    public enum Op {
        ADD(" + "), SUB(" - "), MUL(" * "), DIV(" / ");

        private final String symbol;

        Op(final String symbol) {
            this.symbol = symbol;
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator a = left.bind(input);
        final Evaluator b = right.bind(input);
        final DoubleValues x = new DoubleValues(a, toString());
        final DoubleValues y = new DoubleValues(b, toString());
        return new Evaluator(DataType.DOUBLE) {
            private final long[] out = new long[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];

            @Override
            public long[] longs(final Batch batch) {
                final double[] l = x.doubles(batch);
                final double[] r = y.doubles(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    final double v = switch (op) {
                        case ADD -> l[i] + r[i];
                        case SUB -> l[i] - r[i];
                        case MUL -> l[i] * r[i];
                        case DIV -> l[i] / r[i];
                    };
                    out[i] = Double.doubleToRawLongBits(v);
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return NullRows.union(a.nulls(batch), b.nulls(batch), nullScratch, batch.rowCount());
            }

            @Override
            public String toString() {
                return DoubleArithmetic.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        return "(" + left + op.symbol + right + ")::double";
    }
}
