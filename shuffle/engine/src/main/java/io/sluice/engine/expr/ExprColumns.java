package io.sluice.engine.expr;

import java.util.List;
import java.util.Set;

/** The columns an engine expression reads. */
public final class ExprColumns {
    private ExprColumns() {
    }

    /** Adds the names of the columns {@code e} reads to {@code out}; null adds nothing. */
    public static void collect(final Expr e, final Set<String> out) {
        if (e == null || e instanceof Literal) {
            return;
        }
        if (e instanceof ColumnRef r) {
            out.add(r.name());
        } else if (e instanceof Arithmetic a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (e instanceof DoubleArithmetic a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (e instanceof Comparison c) {
            collect(c.left(), out);
            collect(c.right(), out);
        } else if (e instanceof Logical l) {
            collectAll(l.terms(), out);
        } else if (e instanceof Not n) {
            collect(n.term(), out);
        } else if (e instanceof InList i) {
            collect(i.value(), out);
        } else if (e instanceof Like l) {
            collect(l.value(), out);
        } else if (e instanceof CaseWhen c) {
            collect(c.condition(), out);
            collect(c.then(), out);
            collect(c.otherwise(), out);
        } else if (e instanceof ExtractYear y) {
            collect(y.date(), out);
        } else if (e instanceof Substring s) {
            collect(s.value(), out);
        } else if (e instanceof IsNull n) {
            collect(n.operand(), out);
        } else if (e instanceof ScalarFunction f) {
            collectAll(f.arguments(), out);
        } else {
            throw new IllegalStateException("no column rule for " + e.getClass().getSimpleName());
        }
    }

    /** Adds the columns every expression of a list reads. */
    public static void collectAll(final List<Expr> exprs, final Set<String> out) {
        for (final Expr e : exprs) {
            collect(e, out);
        }
    }
}
