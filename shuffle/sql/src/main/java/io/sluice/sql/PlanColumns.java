package io.sluice.sql;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.List;

/** The names of the columns a plan node outputs, in order. */
final class PlanColumns {
    private PlanColumns() {
    }

    static List<String> of(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.columns();
        }
        if (node instanceof PlanNode.Filter f) {
            return of(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return names(p.items());
        }
        if (node instanceof PlanNode.Aggregation a) {
            final List<String> out = names(a.keys());
            for (final Aggregate agg : a.aggregates()) {
                out.add(agg.name());
            }
            return out;
        }
        if (node instanceof PlanNode.Join j) {
            final List<String> out = new ArrayList<>(j.type().outputsProbe() ? of(j.probe()) : List.of());
            if (j.type().outputsBuild()) {
                out.addAll(of(j.build()));
            }
            return out;
        }
        if (node instanceof PlanNode.OrderBy o) {
            return of(o.input());
        }
        if (node instanceof PlanNode.UnionAll u) {
            return of(u.inputs().get(0));
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return of(a.input());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final List<String> out = new ArrayList<>(of(j.probe()));
            if (!j.type().probeColumnsOnly()) {
                out.addAll(of(j.build()));
            }
            return out;
        }
        if (node instanceof PlanNode.Window w) {
            final List<String> out = new ArrayList<>(of(w.input()));
            w.functions().forEach(f -> out.add(f.name()));
            return out;
        }
        return of(((PlanNode.Limit) node).input());
    }

    private static List<String> names(final List<NamedExpr> items) {
        final List<String> out = new ArrayList<>();
        for (final NamedExpr item : items) {
            out.add(item.name());
        }
        return out;
    }
}
