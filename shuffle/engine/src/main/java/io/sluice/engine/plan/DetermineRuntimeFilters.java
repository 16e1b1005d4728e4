package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilterMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides which joins make a runtime filter and which scan applies it (seed 004). An inner or semi
 * join drops every probe row without a build match (a right semi or anti join's probe rows only mark
 * build rows, so one without a match changes nothing), so a filter on its keys may be applied wherever
 * those key values are read: the rule follows each probe key column down the probe side (through
 * filters, renaming projections, the probe side of any join and the build side of inner joins) to the
 * scan that reads it, and picks the scan that reads most key columns. The scope follows the join's
 * distribution: local for broadcast and hybrid (every CN holds the whole build), global for a hash
 * shuffle, per bucket for a range shuffle or colocation. A range filter's scan needs the first key,
 * which its range function buckets by.
 */
final class DetermineRuntimeFilters {
    private DetermineRuntimeFilters() {
    }

    /**
     * @param joins each join's distribution, decided once for the query
     * @param stats the row estimates that tell whether a filter can pay for itself
     */
    static List<RuntimeFilterTarget> decide(final PlanNode root, final StrategyConfig config, final Distributions joins,
                               final PlanStats stats) {
        final List<RuntimeFilterTarget> targets = new ArrayList<>();
        visit(root, config, joins, stats, targets);
        return targets;
    }

    private static void visit(final PlanNode node, final StrategyConfig config, final Distributions joins,
                              final PlanStats stats, final List<RuntimeFilterTarget> out) {
        if (node instanceof PlanNode.Join j) {
            final RuntimeFilterTarget t = target(j, out.size(), config, joins, stats);
            if (t != null) {
                out.add(t);
            }
            visit(j.probe(), config, joins, stats, out);
            visit(j.build(), config, joins, stats, out);
        } else if (node instanceof PlanNode.Filter f) {
            visit(f.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.Project p) {
            visit(p.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.Aggregation a) {
            visit(a.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.OrderBy o) {
            visit(o.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.Limit l) {
            visit(l.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.Window w) {
            visit(w.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.AssertOneRow a) {
            visit(a.input(), config, joins, stats, out);
        } else if (node instanceof PlanNode.NestedLoopJoin j) {
            visit(j.probe(), config, joins, stats, out);
            visit(j.build(), config, joins, stats, out);
        } else if (node instanceof PlanNode.UnionAll u) {
            for (final PlanNode in : u.inputs()) {
                visit(in, config, joins, stats, out);
            }
        }
    }

    private static RuntimeFilterTarget target(final PlanNode.Join j, final int id, final StrategyConfig config,
                                 final Distributions joins, final PlanStats stats) {
        if (config.runtimeFilters().mode() == RuntimeFilterMode.OFF
                || (j.type() != JoinType.INNER && j.type() != JoinType.SEMI && !j.type().buildColumnsOnly())) {
            return null;
        }
        final LocalShuffle how = joins.of(j);
        final FilterScope scope = switch (how.choice()) {
            case BROADCAST, HYBRID -> FilterScope.LOCAL;
            case SHUFFLE_HASH -> FilterScope.GLOBAL;
            default -> FilterScope.PER_BUCKET;
        };
        if (!config.runtimeFilters().mode().allows(scope)
                || (scope == FilterScope.PER_BUCKET && how.boundaries() == null)) {
            return null;
        }
        final Map<PlanNode.Scan, List<Integer>> byScan = new IdentityHashMap<>();
        final Map<PlanNode.Scan, List<String>> columns = new IdentityHashMap<>();
        final List<PlanNode.Scan> order = new ArrayList<>();
        for (int k = 0; k < j.probeKeys().size(); k++) {
            if (!(j.probeKeys().get(k) instanceof ColumnRef r)) {
                continue;
            }
            final Found found = trace(r.name(), j.probe());
            if (found == null) {
                continue;
            }
            if (!byScan.containsKey(found.scan)) {
                byScan.put(found.scan, new ArrayList<>());
                columns.put(found.scan, new ArrayList<>());
                order.add(found.scan);
            }
            byScan.get(found.scan).add(k);
            columns.get(found.scan).add(found.column);
        }
        PlanNode.Scan best = null;
        for (final PlanNode.Scan s : order) {
            final boolean usable = scope != FilterScope.PER_BUCKET || byScan.get(s).get(0) == 0;
            if (usable && (best == null || byScan.get(s).size() > byScan.get(best).size())) {
                best = s;
            }
        }
        // A build that keeps every row of its table holds every key the table has: in the usual join of a foreign
        // key to that table's key (lineitem to the whole of orders) its filter rejects nothing, and only costs.
        // A build larger than the scan could hold no fewer keys than the scan has rows to drop: making its
        // filter (one insertion per build row) costs more than testing the scan's rows against it saves, as in
        // Q4, where an EXISTS builds on lineitem and probes the orders of one quarter.
        // The build's estimate is an upper one, blind to a filter over computed values (a HAVING's): such a build is
        // given its filter, which a HAVING as selective as Q18's makes the one that matters.
        if (best == null || keepsEveryRow(j.build())
                || stats.rows(j.build()) > stats.rows(best) && !filteredAbove(j.build())) {
            return null;
        }
        final RenamedScan probeScan = RenamedScan.of(j.probe());
        final boolean colocated = how.probeReadColocated() && probeScan != null && probeScan.scan() == best;
        return new RuntimeFilterTarget(id, j, best, byScan.get(best), columns.get(best), scope, colocated, how,
                stats.rows(j.build()));
    }

    /** Whether a node's rows are a filter's (not a scan's), through projections: a filter PlanStats cannot estimate. */
    private static boolean filteredAbove(final PlanNode node) {
        return node instanceof PlanNode.Filter || node instanceof PlanNode.Project p && filteredAbove(p.input());
    }

    /** Whether a node passes on every row of the tables it reads: scans without filters, through projections. */
    private static boolean keepsEveryRow(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.filter() == null && s.pruning().isEmpty();
        }
        return node instanceof PlanNode.Project p && keepsEveryRow(p.input());
    }

    /** A scan column a probe key's values come from unchanged. */
    private record Found(PlanNode.Scan scan, String column) {
    }

    private static Found trace(final String column, final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.columns().contains(column) ? new Found(s, column) : null;
        }
        if (node instanceof PlanNode.Filter f) {
            return trace(column, f.input());
        }
        if (node instanceof PlanNode.Project p) {
            for (final NamedExpr item : p.items()) {
                if (item.name().equals(column)) {
                    return item.expr() instanceof ColumnRef r ? trace(r.name(), p.input()) : null;
                }
            }
            return null;
        }
        if (node instanceof PlanNode.Join j) {
            if (j.type().buildColumnsOnly()) {
                // Its rows are build rows, each passed or dropped on its own: dropping one earlier drops it here.
                return trace(column, j.build());
            }
            final Found probe = trace(column, j.probe());
            return probe != null || j.type() != JoinType.INNER ? probe : trace(column, j.build());
        }
        if (node instanceof PlanNode.Aggregation a) {
            // A group key's values are its input's: rows a filter drops below the group-by only drop whole groups,
            // which the inner or semi join above would drop anyway (a decorrelated subquery's group-by: Q17, Q20).
            for (final NamedExpr key : a.keys()) {
                if (key.name().equals(column)) {
                    return key.expr() instanceof ColumnRef r ? trace(r.name(), a.input()) : null;
                }
            }
        }
        return null;
    }
}
