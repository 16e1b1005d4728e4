package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code e IN (constants)} for exact numbers (scales aligned) and strings. As in SQL it is NULL
 * where {@code e} is NULL, and, when the list holds a NULL, also where no other constant matches
 * ({@code 5 IN (1, NULL)} is NULL, {@code 1 IN (1, NULL)} is TRUE).
 */
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
        final List<Literal> present = new ArrayList<>();
        for (final Expr c : list) {
            if (!((Literal) c).isNull()) {
                present.add((Literal) c);
            }
        }
        final boolean listHasNull = present.size() < list.size();
        if (e.type().kind() == DataType.Kind.STRING) {
            final byte[][] constants = new byte[present.size()][];
            for (int i = 0; i < constants.length; i++) {
                final String s = present.get(i).string();
                if (s == null) {
                    throw new IllegalArgumentException(this + " mixes a string column with a number");
                }
                constants[i] = s.getBytes(StandardCharsets.UTF_8);
            }
            final Evaluator strings = new StringPredicate(e) {
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
            return listHasNull ? new UnlessMatched(strings) : strings;
        }
        Scales.requireNumeric(e, toString(), true);
        int scale = Scales.scale(e.type());
        for (final Literal c : present) {
            if (c.string() != null) {
                throw new IllegalArgumentException(this + " mixes a number with a string");
            }
            scale = Math.max(scale, Scales.scale(c.type()));
        }
        final long[] constants = new long[present.size()];
        for (int i = 0; i < constants.length; i++) {
            final Literal lit = present.get(i);
            constants[i] = Math.multiplyExact(lit.value(), Scales.power(scale - Scales.scale(lit.type())));
        }
        final Evaluator scaled = Scales.rescale(e, scale);
        final Evaluator numbers = new Evaluator(DataType.BOOLEAN) {
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
            public long[] nulls(final Batch batch) {
                return scaled.nulls(batch);
            }

            @Override
            public String toString() {
                return InList.this.toString();
            }
        };
        return listHasNull ? new UnlessMatched(numbers) : numbers;
    }

    @Override
    public String toString() {
        return value + " IN " + list;
    }

    /** An IN whose list holds a NULL: NULL, not FALSE, where no other constant matches. */
    private final class UnlessMatched extends Evaluator {
        private final Evaluator matched;
        private final long[] nullRows = new long[NullRows.WORDS];

        UnlessMatched(final Evaluator matched) {
            super(DataType.BOOLEAN);
            this.matched = matched;
        }

        @Override
        public boolean[] bools(final Batch batch) {
            return matched.bools(batch);
        }

        @Override
        public long[] nulls(final Batch batch) {
            final boolean[] hit = matched.bools(batch);
            final long[] valueNulls = matched.nulls(batch);
            final int n = batch.rowCount();
            for (int w = 0; w < NullMask.words(n); w++) {
                nullRows[w] = valueNulls == null ? 0 : valueNulls[w];
            }
            for (int i = 0; i < n; i++) {
                if (!hit[i]) {
                    NullMask.setNull(nullRows, i);
                }
            }
            return nullRows;
        }

        @Override
        public String toString() {
            return InList.this.toString();
        }
    }
}
