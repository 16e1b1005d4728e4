package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shuffle a node's output rows come bucketed by without a new exchange, derived from the decisions
 * below it: a shuffle join's (its keys' buckets), a broadcast join's probe side's, a shuffle group-by's (its
 * key's buckets), through filters and renaming projections. No rule runs here: it only reads decisions.
 */
final class DeliveredPartitioning {
    private DeliveredPartitioning() {
    }

    /** The partitioning a node delivers, or null when its rows are bucketed by nothing. */
    static Partitioning of(final PlanNode node, final DistributionLookup decided) {
        if (node instanceof PlanNode.Filter f) {
            return of(f.input(), decided);
        }
        if (node instanceof PlanNode.Project p) {
            final Partitioning in = of(p.input(), decided);
            return in == null ? null : in.renamed(p.items());
        }
        if (node instanceof PlanNode.Join j) {
            return join(j, decided);
        }
        if (node instanceof PlanNode.Aggregation a) {
            return aggregation(a, decided);
        }
        return null;
    }

    /** A join key's column name (join keys are column references once the SQL layer projected them). */
    static String name(final Expr key) {
        return ((ColumnRef) key).name();
    }

    private static Partitioning join(final PlanNode.Join j, final DistributionLookup decided) {
        final LocalShuffle how = decided.decisionOf(j);
        if (how.choice() == Distribution.BROADCAST) {
            // A right semi or anti join's rows come out of the one table, untagged.
            return j.type().buildColumnsOnly() ? null : of(j.probe(), decided);
        }
        if (how.choice() == Distribution.HYBRID && decided.distributed()) {
            // Each CN joins its own probe rows: buckets of the same core on different CNs hold equal keys.
            return null;
        }
        if (how.perKey()) {
            // A heavy key's rows are spread over the cores of every CN: no bucket holds all rows of a key.
            return null;
        }
        final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
        final List<String> probeKeys = new ArrayList<>();
        for (int k = 0; k < used; k++) {
            probeKeys.add(name(j.probeKeys().get(k)));
        }
        if (j.type().buildColumnsOnly()) {
            // The build rows come out of their buckets' tables: bucketed by the build keys.
            final List<String> buildKeys = new ArrayList<>();
            for (int k = 0; k < used; k++) {
                buildKeys.add(name(j.buildKeys().get(k)));
            }
            return how.boundaries() != null ? Partitioning.range(Set.of(buildKeys.get(0)), how.boundaries())
                    : Partitioning.hash(buildKeys);
        }
        Partitioning out = how.boundaries() != null ? Partitioning.range(Set.of(probeKeys.get(0)), how.boundaries())
                : Partitioning.hash(probeKeys);
        if (j.type() == JoinType.INNER) {
            for (int k = 0; k < used; k++) {
                out = out.withEqual(k, name(j.buildKeys().get(k)));
            }
        }
        return out;
    }

    private static Partitioning aggregation(final PlanNode.Aggregation a, final DistributionLookup decided) {
        final LocalShuffle how = decided.decisionOf(a);
        switch (how.choice()) {
            case MERGE -> {
                return null;
            }
            case REUSE_SHUFFLE -> {
                final Partitioning in = of(a.input(), decided);
                return in == null ? null : in.renamed(a.keys());
            }
            case SHUFFLE_HASH -> {
                final List<String> keys = new ArrayList<>();
                for (final NamedExpr k : a.keys()) {
                    if (k.expr() instanceof ColumnRef) {
                        keys.add(k.name());
                    }
                }
                return Partitioning.hash(keys);
            }
            default -> {
                final Set<String> slot = new HashSet<>();
                for (final NamedExpr k : a.keys()) {
                    if (k.expr() instanceof ColumnRef r && r.name().equals(how.rangeKey())) {
                        slot.add(k.name());
                    }
                }
                return slot.isEmpty() ? null : Partitioning.range(slot, how.boundaries());
            }
        }
    }
}
