package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;

/**
 * {@code e IS NULL}, or {@code e IS NOT NULL} when negated: a predicate over an expression of any
 * type that is never NULL itself. It reads only the operand's NULL rows, not its values.
 */
public record IsNull(Expr operand, boolean negated) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator e = operand.bind(input);
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];
            private final boolean[] none = constant(negated);

            @Override
            public boolean[] bools(final Batch batch) {
                final long[] nullRows = e.nulls(batch);
                if (nullRows == null) {
                    return none;
                }
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = NullMask.isNull(nullRows, i) != negated;
                }
                return out;
            }

            @Override
            public String toString() {
                return IsNull.this.toString();
            }
        };
    }

    private static boolean[] constant(final boolean value) {
        final boolean[] v = new boolean[Evaluator.MAX_ROWS];
        Arrays.fill(v, value);
        return v;
    }

    @Override
    public String toString() {
        return "(" + operand + (negated ? " IS NOT NULL)" : " IS NULL)");
    }
}
