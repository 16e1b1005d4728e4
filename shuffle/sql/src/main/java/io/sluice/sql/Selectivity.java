package io.sluice.sql;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Comparison;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.InList;
import io.sluice.engine.expr.Like;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.Logical;
import io.sluice.engine.expr.Not;
import io.sluice.format.TypeKind;
import io.sluice.zonemap.ColumnStats;
import java.util.Map;

/**
 * The fraction of rows a predicate keeps, estimated from zonemap statistics: a range against a
 * column's min and max (uniform between them), equality through the distinct-count estimate, IN
 * as that many equalities; conjunctions multiply, disjunctions add. Predicates the statistics
 * say nothing about get fixed guesses.
 */
final class Selectivity {
    /** LIKE and other string tests the zonemaps cannot judge. */
    static final double UNKNOWN_MATCH = 0.1;
    /** A comparison of two columns, or of a computed value. */
    static final double UNKNOWN_COMPARISON = 0.33;
    /**
     * A range of a value no stored column describes (an aggregate's result, as a HAVING tests it)
     * against a constant: such thresholds pick out the few groups beyond the usual (Q18's
     * {@code sum(l_quantity) > 300} keeps 57 of 1.5 million orders).
     */
    static final double UNKNOWN_RANGE = 0.1;
    /** The fewest distinct values assumed for an equality on a string column. */
    private static final double MIN_STRING_DISTINCT_FRACTION = 0.1;

    private Selectivity() {
    }

    /** The estimated fraction of rows where {@code predicate} holds, in [0, 1]. */
    static double of(final Expr predicate, final Map<String, StoredColumn> stats) {
        return clamp(estimate(predicate, stats));
    }

    private static double estimate(final Expr e, final Map<String, StoredColumn> stats) {
        if (e instanceof Logical l) {
            if (l.op() == Logical.Op.AND) {
                double s = 1;
                for (final Expr t : l.terms()) {
                    s *= of(t, stats);
                }
                return s;
            }
            double miss = 1;
            for (final Expr t : l.terms()) {
                miss *= 1 - of(t, stats);
            }
            return 1 - miss;
        }
        if (e instanceof Not n) {
            return 1 - of(n.term(), stats);
        }
        if (e instanceof Like) {
            return UNKNOWN_MATCH;
        }
        if (e instanceof InList in) {
            return in.value() instanceof ColumnRef r ? in.list().size() * equality(stats.get(r.name()))
                    : UNKNOWN_MATCH;
        }
        if (e instanceof Comparison c) {
            if (c.left() instanceof ColumnRef r && c.right() instanceof Literal lit) {
                return comparison(c.op(), stats.get(r.name()), lit);
            }
            if (c.right() instanceof ColumnRef r && c.left() instanceof Literal lit) {
                return comparison(flip(c.op()), stats.get(r.name()), lit);
            }
            return c.op() == Comparison.Op.EQ ? UNKNOWN_MATCH : UNKNOWN_COMPARISON;
        }
        return UNKNOWN_COMPARISON;
    }

    private static double comparison(final Comparison.Op op, final StoredColumn s, final Literal lit) {
        if (s == null && op != Comparison.Op.EQ && op != Comparison.Op.NE) {
            return UNKNOWN_RANGE;
        }
        return switch (op) {
            case EQ -> equality(s);
            case NE -> 1 - equality(s);
            case LT, LE -> below(s, lit);
            case GT, GE -> 1 - below(s, lit);
        };
    }

    private static double equality(final StoredColumn column) {
        if (column == null || column.stats().distinctCount() <= 0) {
            return UNKNOWN_MATCH;
        }
        final ColumnStats s = column.stats();
        final double d = s.kind() == TypeKind.STRING
                ? Math.min(s.distinctCount(), 1 / MIN_STRING_DISTINCT_FRACTION) : s.distinctCount();
        return 1 / d;
    }

    /** The fraction of a column's [min, max] below a constant, or a guess when they are not comparable. */
    private static double below(final StoredColumn column, final Literal lit) {
        final ColumnStats s = column == null ? null : column.stats();
        if (s == null || s.kind() == TypeKind.STRING || lit.type().kind() == DataType.Kind.STRING
                || !s.hasValues() || s.max() <= s.min()) {
            return UNKNOWN_COMPARISON;
        }
        final double scale = s.kind() == TypeKind.DECIMAL ? Math.pow(10, column.scale()) : 1;
        final double litScale = lit.type().kind() == DataType.Kind.DECIMAL ? Math.pow(10, lit.type().scale()) : 1;
        final double key = lit.value() / litScale * scale;
        return clamp((key - s.min()) / (double) (s.max() - s.min()));
    }

    private static Comparison.Op flip(final Comparison.Op op) {
        return switch (op) {
            case LT -> Comparison.Op.GT;
            case LE -> Comparison.Op.GE;
            case GT -> Comparison.Op.LT;
            case GE -> Comparison.Op.LE;
            default -> op;
        };
    }

    private static double clamp(final double v) {
        return Double.isNaN(v) ? UNKNOWN_COMPARISON : Math.max(0, Math.min(1, v));
    }
}
