package io.sluice.dispatch.cluster;

import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.ShippedPlan;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What the coordinator checks of a shipped plan before any CN sees it: that it decodes and reads only tables the store has. */
final class PlanTables {
    private PlanTables() {
    }

    /**
     * A client's plan, decoded.
     *
     * @throws IllegalArgumentException when it does not decode, or reads a table {@code store} lacks (null: no
     *                                  store to check against), saying which
     */
    static ShippedPlan checked(final byte[] plan, final Store store) {
        final ShippedPlan shipped;
        try {
            shipped = PlanCodec.decode(plan);
        } catch (final WireFormatException e) {
            throw new IllegalArgumentException("the query's plan does not decode: " + e.getMessage(), e);
        }
        final String refusal = store == null ? null : refusal(shipped, store);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        return shipped;
    }

    /** Why the plan cannot run on {@code store}, or null when it can. */
    static String refusal(final ShippedPlan shipped, final Store store) {
        final Set<String> tables = new LinkedHashSet<>();
        scanned(shipped.plan().node(), tables);
        final List<String> missing = new ArrayList<>();
        for (final String t : tables) {
            if (!store.hasTable(t)) {
                missing.add(t);
            }
        }
        return missing.isEmpty() ? null : "the cluster's store " + store.dir() + " has no table " + missing
                + " (it has " + store.tableNames() + "): the coordinator and every CN must share one store with"
                + " the tables the query reads";
    }

    /** The tables a plan scans, in the order it names them. */
    static void scanned(final PlanNode node, final Set<String> out) {
        if (node instanceof PlanNode.Scan s) {
            out.add(s.table());
        } else if (node instanceof PlanNode.Filter f) {
            scanned(f.input(), out);
        } else if (node instanceof PlanNode.Project p) {
            scanned(p.input(), out);
        } else if (node instanceof PlanNode.Aggregation a) {
            scanned(a.input(), out);
        } else if (node instanceof PlanNode.Join j) {
            scanned(j.probe(), out);
            scanned(j.build(), out);
        } else if (node instanceof PlanNode.OrderBy o) {
            scanned(o.input(), out);
        } else if (node instanceof PlanNode.Limit l) {
            scanned(l.input(), out);
        } else if (node instanceof PlanNode.Window w) {
            scanned(w.input(), out);
        } else if (node instanceof PlanNode.AssertOneRow a) {
            scanned(a.input(), out);
        } else if (node instanceof PlanNode.NestedLoopJoin j) {
            scanned(j.probe(), out);
            scanned(j.build(), out);
        } else if (node instanceof PlanNode.UnionAll u) {
            for (final PlanNode in : u.inputs()) {
                scanned(in, out);
            }
        }
    }
}
