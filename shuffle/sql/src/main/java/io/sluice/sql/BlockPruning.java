package io.sluice.sql;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Comparison;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.InList;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.Logical;
import io.sluice.format.ColumnType;
import io.sluice.format.Schema;
import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.zonemap.CompareOp;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.List;

/**
 * Derives a scan's block pruning from its row filter, a Sluice planner rule: each conjunct that
 * compares a stored column with a constant ({@code =, <, <=, >, >=}, ranges, IN lists) becomes a
 * zonemap {@link Predicate}, so blocks no row of which can pass are never read. Only conjuncts
 * whose constant converts exactly to the column's zonemap key are used; the row filter stays, so
 * pruning only ever skips blocks, never changes the answer.
 */
final class BlockPruning {
    private BlockPruning() {
    }

    /** The zonemap predicates implied by {@code filter} over a table of the given schema. */
    static List<Predicate> derive(final Expr filter, final Schema schema) {
        final List<Predicate> out = new ArrayList<>();
        for (final Expr term : conjuncts(filter)) {
            final Predicate p = predicate(term, schema);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    /** The terms of a conjunction (the expression itself when it is not an AND). */
    static List<Expr> conjuncts(final Expr e) {
        final List<Expr> out = new ArrayList<>();
        if (e instanceof Logical l && l.op() == Logical.Op.AND) {
            for (final Expr t : l.terms()) {
                out.addAll(conjuncts(t));
            }
        } else if (e != null) {
            out.add(e);
        }
        return out;
    }

    private static Predicate predicate(final Expr term, final Schema schema) {
        if (term instanceof Comparison c && c.op() != Comparison.Op.NE) {
            if (c.left() instanceof ColumnRef col && c.right() instanceof Literal lit) {
                return comparison(col.name(), op(c.op()), lit, schema);
            }
            if (c.right() instanceof ColumnRef col && c.left() instanceof Literal lit) {
                return comparison(col.name(), flip(op(c.op())), lit, schema);
            }
        }
        if (term instanceof InList in && in.value() instanceof ColumnRef col) {
            final long[] keys = new long[in.list().size()];
            for (int i = 0; i < keys.length; i++) {
                final Long k = in.list().get(i) instanceof Literal lit ? key(col.name(), lit, schema) : null;
                if (k == null) {
                    return null;
                }
                keys[i] = k;
            }
            return Predicate.in(col.name(), keys);
        }
        return null;
    }

    private static Predicate comparison(final String column, final CompareOp op, final Literal lit, final Schema schema) {
        final Long key = key(column, lit, schema);
        if (key == null) {
            return null;
        }
        final int index = schema.indexOf(column);
        if (schema.type(index).kind() == TypeKind.STRING && op != CompareOp.EQ) {
            // A prefix key bounds equality exactly; ranges on prefixes would need rounding.
            return null;
        }
        return new Predicate.Comparison(column, op, key);
    }

    /** The zonemap key of a constant for a stored column, or null when it does not convert exactly. */
    private static Long key(final String column, final Literal lit, final Schema schema) {
        final int index = schema.indexOf(column);
        if (index < 0 || lit.isNull()) {
            return null;
        }
        final ColumnType type = schema.type(index);
        final DataType.Kind kind = lit.type().kind();
        switch (type.kind()) {
            case STRING:
                return kind == DataType.Kind.STRING ? StringKey.of(lit.string()) : null;
            case DATE:
                return kind == DataType.Kind.DATE ? lit.value() : null;
            case INT64:
            case INT32:
                return kind == DataType.Kind.INT64 ? lit.value() : null;
            case DECIMAL:
                if (kind != DataType.Kind.INT64 && kind != DataType.Kind.DECIMAL) {
                    return null;
                }
                final int from = kind == DataType.Kind.DECIMAL ? lit.type().scale() : 0;
                if (from > type.scale()) {
                    return null;
                }
                return Math.multiplyExact(lit.value(), pow10(type.scale() - from));
            default:
                return null;
        }
    }

    private static long pow10(final int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static CompareOp flip(final CompareOp op) {
        return switch (op) {
            case LT -> CompareOp.GT;
            case LE -> CompareOp.GE;
            case GT -> CompareOp.LT;
            case GE -> CompareOp.LE;
            case EQ -> CompareOp.EQ;
        };
    }

    private static CompareOp op(final Comparison.Op op) {
        return switch (op) {
            case EQ -> CompareOp.EQ;
            case LT -> CompareOp.LT;
            case LE -> CompareOp.LE;
            case GT -> CompareOp.GT;
            case GE -> CompareOp.GE;
            case NE -> throw new IllegalArgumentException("<> prunes nothing");
        };
    }
}
