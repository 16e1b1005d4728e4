package io.sluice.engine.expr;

/** An expression with the name of the column it produces (a projection item, a group-by key). */
public record NamedExpr(String name, Expr expr) {
    public NamedExpr {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an output column needs a name, got '" + name + "' for " + expr);
        }
    }

    /** A column passed on under its own name. */
    public static NamedExpr column(final String name) {
        return new NamedExpr(name, Expr.col(name));
    }

    /** {@code name}, or {@code expr AS name} when it is computed or renamed. */
    @Override
    public String toString() {
        return expr instanceof ColumnRef r && r.name().equals(name) ? name : expr + " AS " + name;
    }
}
