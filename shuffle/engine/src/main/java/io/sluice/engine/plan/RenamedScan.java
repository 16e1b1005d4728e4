package io.sluice.engine.plan;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;

/**
 * A scan, or a projection that only renames (and drops) a scan's columns: what a colocated scan can
 * read as it is, applying the renaming after it. A join's side that SQL renamed because both sides
 * read one table (a subquery of lineitem joined with lineitem) still reads its blocks by bucket.
 *
 * @param scan   the scan
 * @param rename the renaming projection above it, or null
 */
record RenamedScan(PlanNode.Scan scan, PlanNode.Project rename) {
    /** The node as a renamed scan, or null when it is neither a scan nor renamed scan columns. */
    static RenamedScan of(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return new RenamedScan(s, null);
        }
        if (!(node instanceof PlanNode.Project p) || !(p.input() instanceof PlanNode.Scan s)) {
            return null;
        }
        for (final NamedExpr item : p.items()) {
            if (!(item.expr() instanceof ColumnRef)) {
                return null;
            }
        }
        return new RenamedScan(s, p);
    }

    /** The scan column an output column is, or null when there is none of that name. */
    String scanColumn(final String name) {
        if (rename == null) {
            return scan.columns().contains(name) ? name : null;
        }
        for (final NamedExpr item : rename.items()) {
            if (item.name().equals(name)) {
                return ((ColumnRef) item.expr()).name();
            }
        }
        return null;
    }
}
