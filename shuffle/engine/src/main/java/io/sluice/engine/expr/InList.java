package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** {@code e IN (constants)} for exact numbers (scales aligned) and strings. */
public record InList(Expr value, List<Expr> list) implements Expr {
    public InList {
        if (list.isEmpty()) {
            throw new IllegalArgumentException("IN on " + value + " needs at least one constant");
        }
        for (final Expr e : list) {
            if (!(e instanceof Literal)) {
                throw new IllegalArgumentException("IN on " + value + " takes constants, got " + e);
            }
        }
        list = List.copyOf(list);
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator e = value.bind(input);
        if (e.type().kind() == DataType.Kind.STRING) {
            final byte[][] constants = new byte[list.size()][];
            for (int i = 0; i < constants.length; i++) {
                final String s = ((Literal) list.get(i)).string();
                if (s == null) {
                    throw new IllegalArgumentException(this + " mixes a string column with a number");
                }
                constants[i] = s.getBytes(StandardCharsets.UTF_8);
            }
            return new StringPredicate(e) {
                @Override
                boolean test(final byte[] bytes, final int offset, final int length) {
                    for (final byte[] c : constants) {
                        if (Arrays.equals(bytes, offset, offset + length, c, 0, c.length)) {
                            return true;
                        }
                    }
                    return false;
                }

                @Override
                public String toString() {
                    return InList.this.toString();
                }
            };
        }
        Scales.requireNumeric(e, toString(), true);
        int scale = Scales.scale(e.type());
        for (final Expr c : list) {
            scale = Math.max(scale, Scales.scale(((Literal) c).type()));
        }
        final long[] constants = new long[list.size()];
        for (int i = 0; i < constants.length; i++) {
            final Literal lit = (Literal) list.get(i);
            constants[i] = Math.multiplyExact(lit.value(), Scales.power(scale - Scales.scale(lit.type())));
        }
        final Evaluator scaled = Scales.rescale(e, scale);
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];

            @Override
            public boolean[] bools(final Batch batch) {
                final long[] v = scaled.longs(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    boolean hit = false;
                    for (final long c : constants) {
                        hit |= v[i] == c;
                    }
                    out[i] = hit;
                }
                return out;
            }

            @Override
            public String toString() {
                return InList.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        return value + " IN " + list;
    }
}
