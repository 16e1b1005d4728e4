package io.sluice.sql;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.ExprColumns;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Projection pruning, a Sluice planner rule: walks the plan from the root and keeps in each scan,
 * projection and aggregation only the columns something above reads, so a scan reads only the
 * columns the query uses; a projection above a scan drops the columns only its row filter reads.
 */
final class ColumnPruning {
    private ColumnPruning() {
    }

    /** The plan with every column nothing reads removed; the root keeps all of its columns. */
    static PlanNode apply(final PlanNode root) {
        return prune(root, new LinkedHashSet<>(PlanColumns.of(root)));
    }

    private static PlanNode prune(final PlanNode node, final Set<String> required) {
        if (node instanceof PlanNode.Scan s) {
            final PlanNode.Scan scan = prunedScan(s, required);
            final List<NamedExpr> read = new ArrayList<>();
            for (final String c : scan.columns()) {
                if (required.contains(c)) {
                    read.add(NamedExpr.column(c));
                }
            }
            // Columns only the row filter reads go no further than the scan.
            return read.isEmpty() || read.size() == scan.columns().size() ? scan : new PlanNode.Project(scan, read);
        }
        if (node instanceof PlanNode.Filter f) {
            final Set<String> needed = new HashSet<>(required);
            ExprColumns.collect(f.predicate(), needed);
            return new PlanNode.Filter(prune(f.input(), needed), f.predicate());
        }
        if (node instanceof PlanNode.Project p) {
            final List<NamedExpr> kept = new ArrayList<>();
            final Set<String> needed = new HashSet<>();
            for (final NamedExpr item : p.items()) {
                if (required.contains(item.name())) {
                    kept.add(item);
                    ExprColumns.collect(item.expr(), needed);
                }
            }
            if (kept.isEmpty()) {
                kept.add(p.items().get(0));
                ExprColumns.collect(p.items().get(0).expr(), needed);
            }
            return new PlanNode.Project(pruneRead(p.input(), needed), kept);
        }
        if (node instanceof PlanNode.Aggregation a) {
            final Set<String> needed = new HashSet<>();
            for (final NamedExpr k : a.keys()) {
                ExprColumns.collect(k.expr(), needed);
            }
            final List<Aggregate> kept = new ArrayList<>();
            for (final Aggregate agg : a.aggregates()) {
                if (required.contains(agg.name()) || a.keys().isEmpty() && agg == a.aggregates().get(0)) {
                    // Without keys, the first aggregate stays whether read or not: it makes the one row.
                    kept.add(agg);
                    ExprColumns.collect(agg.argument(), needed);
                }
            }
            return new PlanNode.Aggregation(pruneRead(a.input(), needed), a.keys(), kept);
        }
        if (node instanceof PlanNode.Join j) {
            return narrowed(pruneJoin(j, required), required);
        }
        if (node instanceof PlanNode.OrderBy o) {
            final Set<String> needed = new HashSet<>(required);
            for (final SortKey k : o.keys()) {
                needed.add(k.column());
            }
            return new PlanNode.OrderBy(prune(o.input(), needed), o.keys(), o.limit());
        }
        if (node instanceof PlanNode.UnionAll u) {
            // Columns are matched by position: every input keeps all of its columns.
            final List<PlanNode> inputs = new ArrayList<>();
            for (final PlanNode in : u.inputs()) {
                inputs.add(prune(in, new HashSet<>(PlanColumns.of(in))));
            }
            return new PlanNode.UnionAll(inputs);
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            // Its rows are counted, not its columns: keep the keys and what is read above.
            final Set<String> needed = new HashSet<>(required);
            needed.addAll(a.keys());
            return new PlanNode.AssertOneRow(prune(a.input(), within(needed, PlanColumns.of(a.input()))), a.keys(),
                    a.where());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final Set<String> needed = new HashSet<>(required);
            ExprColumns.collect(j.condition(), needed);
            return new PlanNode.NestedLoopJoin(prune(j.probe(), within(needed, PlanColumns.of(j.probe()))),
                    prune(j.build(), within(needed, PlanColumns.of(j.build()))), j.type(), j.condition());
        }
        if (node instanceof PlanNode.Window w) {
            // Every function is kept (its argument may be all that reads a column); the keys are read.
            final Set<String> needed = new HashSet<>(required);
            needed.addAll(w.partitionBy());
            for (final SortKey k : w.orderBy()) {
                needed.add(k.column());
            }
            for (final io.sluice.engine.exec.WindowFunction f : w.functions()) {
                ExprColumns.collect(f.argument(), needed);
            }
            return new PlanNode.Window(prune(w.input(), within(needed, PlanColumns.of(w.input()))), w.partitionBy(),
                    w.orderBy(), w.functions());
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        return new PlanNode.Limit(prune(l.input(), required), l.limit());
    }

    /**
     * The input of a projection or a group-by, which read only {@code required}: a join there is left
     * as it is, since the engine joins only the columns the operator above it reads, and a scan there
     * keeps its row filter's columns, which the engine leaves unmaterialized.
     */
    private static PlanNode pruneRead(final PlanNode input, final Set<String> required) {
        if (input instanceof PlanNode.Scan s) {
            // The engine's scan under a projection or group-by leaves the columns they do not read unmaterialized.
            return prunedScan(s, required);
        }
        return input instanceof PlanNode.Join j ? pruneJoin(j, required) : prune(input, required);
    }

    /** A scan of the columns read above and those its row filter reads. */
    private static PlanNode.Scan prunedScan(final PlanNode.Scan s, final Set<String> required) {
        final Set<String> needed = new HashSet<>(required);
        ExprColumns.collect(s.filter(), needed);
        final List<String> kept = new ArrayList<>();
        for (final String c : s.columns()) {
            if (needed.contains(c)) {
                kept.add(c);
            }
        }
        if (kept.isEmpty()) {
            kept.add(s.columns().get(0));
        }
        return new PlanNode.Scan(s.table(), kept, s.pruning(), s.filter());
    }

    private static PlanNode.Join pruneJoin(final PlanNode.Join j, final Set<String> required) {
        final Set<String> needed = new HashSet<>(required);
        ExprColumns.collectAll(j.probeKeys(), needed);
        ExprColumns.collectAll(j.buildKeys(), needed);
        ExprColumns.collect(j.condition(), needed);
        final Set<String> probe = within(needed, PlanColumns.of(j.probe()));
        final Set<String> build = within(needed, PlanColumns.of(j.build()));
        return new PlanNode.Join(prune(j.probe(), probe), prune(j.build(), build), j.type(), j.probeKeys(),
                j.buildKeys(), j.condition());
    }

    /**
     * A join whose rows go on to an operator that does not name its columns (another join, an exchange, a
     * filter) under a projection of the columns read above, so that the engine joins only those: the keys
     * it joins on and the columns nothing above reads go no further.
     */
    private static PlanNode narrowed(final PlanNode.Join j, final Set<String> required) {
        final List<String> columns = PlanColumns.of(j);
        final List<NamedExpr> kept = new ArrayList<>();
        for (final String c : columns) {
            if (required.contains(c)) {
                kept.add(NamedExpr.column(c));
            }
        }
        if (kept.size() == columns.size() || kept.isEmpty() || j.condition() != null || j.type().probeColumnsOnly()
                || j.type().buildColumnsOnly()) {
            return j;
        }
        return new PlanNode.Project(j, kept);
    }

    private static Set<String> within(final Set<String> needed, final List<String> columns) {
        final Set<String> out = new HashSet<>();
        for (final String c : columns) {
            if (needed.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }
}
