package io.sluice.engine.plan;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.DoubleArithmetic;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import java.util.ArrayList;
import java.util.List;

/**
 * The column types of a UNION ALL: per position the widest of its inputs' types, where a number
 * widens exactly (INT32 to INT64, an integer or a decimal to a decimal of a larger scale, a decimal to a
 * 128-bit decimal, a SUM) or to
 * DOUBLE; and for an input with narrower columns, the projection that widens them. SQL unions
 * columns of different numeric types (an INTEGER with a BIGINT); any other difference is an error
 * that names the input and the column.
 */
final class UnionTypes {
    private UnionTypes() {
    }

    /** The widest type of each column over the inputs. */
    static List<DataType> widest(final List<RowType> inputs) {
        final RowType first = inputs.get(0);
        final List<DataType> out = new ArrayList<>(first.types());
        for (int i = 1; i < inputs.size(); i++) {
            final RowType in = inputs.get(i);
            if (in.size() != first.size()) {
                throw new IllegalArgumentException("UNION ALL input " + i + " has " + in.size() + " columns "
                        + in.names() + ", input 0 has " + first.size() + " " + first.names()
                        + ": every input needs the same number of columns");
            }
            for (int c = 0; c < in.size(); c++) {
                final DataType w = wider(out.get(c), in.type(c));
                if (w == null) {
                    throw new IllegalArgumentException("UNION ALL input " + i + " column " + c + " '" + in.name(c)
                            + "' is " + in.type(c) + " but input 0's '" + first.name(c) + "' is " + first.type(c)
                            + ": project the inputs to the same column types");
                }
                out.set(c, w);
            }
        }
        return out;
    }

    /** The projection that widens an input's columns to the given types, or null when they already are. */
    static List<NamedExpr> widening(final RowType input, final List<DataType> types) {
        if (input.types().equals(types)) {
            return null;
        }
        final List<NamedExpr> items = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            final Expr col = Expr.col(input.name(c));
            final DataType from = input.type(c);
            final DataType to = types.get(c);
            final Expr widened;
            if (from.equals(to)) {
                widened = col;
            } else if (to.kind() == DataType.Kind.DOUBLE) {
                widened = new DoubleArithmetic(DoubleArithmetic.Op.ADD, col, Expr.lit(0));
            } else if (to.isWide()) {
                // Adding a 128-bit zero makes the sum 128 bits wide, with the zero's scale.
                widened = Expr.add(col, new Literal(to, 0, null));
            } else if (to.kind() == DataType.Kind.DECIMAL) {
                widened = Expr.add(col, Expr.dec(to.scale() == 0 ? "0" : "0." + "0".repeat(to.scale())));
            } else {
                widened = Expr.add(col, Expr.lit(0));
            }
            items.add(new NamedExpr(input.name(c), widened));
        }
        return items;
    }

    /** The type both values fit exactly (or as a double), or null when there is none. */
    private static DataType wider(final DataType a, final DataType b) {
        if (a.equals(b)) {
            return a;
        }
        if (!numeric(a) || !numeric(b)) {
            return null;
        }
        if (a.kind() == DataType.Kind.DOUBLE || b.kind() == DataType.Kind.DOUBLE) {
            return DataType.DOUBLE;
        }
        if (a.isWide() || b.isWide()) {
            return DataType.decimal128(Math.max(scale(a), scale(b)));
        }
        if (a.kind() == DataType.Kind.DECIMAL || b.kind() == DataType.Kind.DECIMAL) {
            return DataType.decimal(Math.max(scale(a), scale(b)));
        }
        return DataType.INT64;
    }

    private static boolean numeric(final DataType t) {
        return t.kind() == DataType.Kind.INT32 || t.kind() == DataType.Kind.INT64 || t.kind() == DataType.Kind.DECIMAL
                || t.kind() == DataType.Kind.DOUBLE || t.isWide();
    }

    private static int scale(final DataType t) {
        return t.kind() == DataType.Kind.DECIMAL || t.isWide() ? t.scale() : 0;
    }
}
