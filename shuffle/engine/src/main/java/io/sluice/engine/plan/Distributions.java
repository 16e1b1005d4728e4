package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each join's and group-by's distribution in one query, decided once the first time a rule or the
 * compiler asks, and the same answer for every later question (the operator itself, the partitioning it
 * delivers to the operators above it, its runtime filter in {@link DetermineRuntimeFilters}); and the
 * partitioning each node delivers, which those decisions read. A join is decided by
 * {@link DetermineJoinDistribution}, then {@link DeterminePartitionReuse} with what its sides deliver; a
 * group-by by {@link DetermineGroupStrategy} with what its input delivers.
 */
final class Distributions {
    private final StrategyConfig config;
    private final PlanStats stats;
    private final Topology topology;
    private final boolean distributed;
    private final Map<PlanNode.Join, LocalShuffle> joins = new IdentityHashMap<>();
    private final Map<PlanNode.Aggregation, LocalShuffle> groups = new IdentityHashMap<>();
    private final Map<PlanNode, LocalShuffle> keyed = new IdentityHashMap<>();

    /** @param distributed whether the query runs on a cluster (where a hybrid join's probe stays on its CN) */
    Distributions(final StrategyConfig config, final PlanStats stats, final Topology topology,
                  final boolean distributed) {
        this.config = config;
        this.stats = stats;
        this.topology = topology;
        this.distributed = distributed;
    }

    /** How a join is distributed. */
    LocalShuffle of(final PlanNode.Join join) {
        final LocalShuffle known = joins.get(join);
        if (known != null) {
            return known;
        }
        final LocalShuffle decidedAlone = DetermineJoinDistribution.decide(join, config, stats, topology);
        final LocalShuffle planned = distributed && join.type().buildColumnsOnly()
                ? DetermineJoinDistribution.partitionedOnCluster(join, decidedAlone, stats, topology) : decidedAlone;
        final LocalShuffle decided = DeterminePartitionReuse.decide(join, planned, delivered(join.probe()),
                delivered(join.build()), config, stats);
        joins.put(join, decided);
        return decided;
    }

    /** How a group-by is distributed. */
    LocalShuffle of(final PlanNode.Aggregation agg) {
        final LocalShuffle known = groups.get(agg);
        if (known != null) {
            return known;
        }
        final LocalShuffle decided = DetermineGroupStrategy.decide(agg, slots(delivered(agg.input())), config,
                stats, topology);
        groups.put(agg, decided);
        return decided;
    }

    /** How a nested-loop join is distributed ({@link DetermineNestedLoopDistribution}). */
    LocalShuffle of(final PlanNode.NestedLoopJoin j) {
        return keyed.computeIfAbsent(j, n -> DetermineNestedLoopDistribution.decide(j, distributed
                && onCoordinator(j.probe()), distributed && onCoordinator(j.build()), topology.cnCount(), config,
                stats));
    }

    /**
     * Whether a node's rows are all on the coordinator on a cluster (a SINGLE fragment): after a merge
     * group-by, an ORDER BY, a LIMIT, a window or assertion without keys, through filters, projections,
     * the probe side of broadcast and nested-loop joins, and unions of such inputs only.
     */
    boolean onCoordinator(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return onCoordinator(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return onCoordinator(p.input());
        }
        if (node instanceof PlanNode.Aggregation a) {
            return of(a).choice() == Distribution.MERGE;
        }
        if (node instanceof PlanNode.Join j) {
            return of(j).choice() == Distribution.BROADCAST && onCoordinator(j.probe());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return of(j).choice() != Distribution.ROUND_ROBIN && onCoordinator(j.probe());
        }
        if (node instanceof PlanNode.Window w) {
            return of(w).choice() == Distribution.GATHER;
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return of(a).choice() == Distribution.GATHER;
        }
        if (node instanceof PlanNode.UnionAll u) {
            return u.inputs().stream().allMatch(this::onCoordinator);
        }
        return node instanceof PlanNode.OrderBy || node instanceof PlanNode.Limit;
    }

    /** Where a window's partitions meet ({@link DeterminePartitionDistribution}). */
    LocalShuffle of(final PlanNode.Window w) {
        return keyed.computeIfAbsent(w, n -> DeterminePartitionDistribution.decide(w.partitionBy(),
                slots(delivered(w.input())), "no PARTITION BY: all rows are one partition"));
    }

    /** Where a scalar subquery's rows (per key) meet to be counted ({@link DeterminePartitionDistribution}). */
    LocalShuffle of(final PlanNode.AssertOneRow a) {
        return keyed.computeIfAbsent(a, n -> DeterminePartitionDistribution.decide(a.keys(),
                slots(delivered(a.input())), "at most one row in all: checked where all rows meet"));
    }

    private static List<Set<String>> slots(final Partitioning p) {
        return p == null ? null : p.slots();
    }

    /**
     * The shuffle a node's output rows come bucketed by without a new exchange, or null: a shuffle join's
     * (its keys' buckets), a broadcast join's probe side's, a shuffle group-by's (its key's buckets), through
     * filters and renaming projections.
     */
    Partitioning delivered(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return delivered(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            final Partitioning in = delivered(p.input());
            return in == null ? null : in.renamed(p.items());
        }
        if (node instanceof PlanNode.Join j) {
            return delivered(j);
        }
        if (node instanceof PlanNode.Aggregation a) {
            return delivered(a);
        }
        return null;
    }

    private Partitioning delivered(final PlanNode.Join j) {
        final LocalShuffle how = of(j);
        if (how.choice() == Distribution.BROADCAST) {
            // A right semi or anti join's rows come out of the one table, untagged.
            return j.type().buildColumnsOnly() ? null : delivered(j.probe());
        }
        if (how.choice() == Distribution.HYBRID && distributed) {
            // Each CN joins its own probe rows: buckets of the same core on different CNs hold equal keys.
            return null;
        }
        final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
        final List<String> probeKeys = new ArrayList<>();
        for (int k = 0; k < used; k++) {
            probeKeys.add(DetermineJoinDistribution.name(j.probeKeys().get(k)));
        }
        if (j.type().buildColumnsOnly()) {
            // The build rows come out of their buckets' tables: bucketed by the build keys.
            final List<String> buildKeys = new ArrayList<>();
            for (int k = 0; k < used; k++) {
                buildKeys.add(DetermineJoinDistribution.name(j.buildKeys().get(k)));
            }
            return how.boundaries() != null ? Partitioning.range(Set.of(buildKeys.get(0)), how.boundaries())
                    : Partitioning.hash(buildKeys);
        }
        Partitioning out = how.boundaries() != null ? Partitioning.range(Set.of(probeKeys.get(0)), how.boundaries())
                : Partitioning.hash(probeKeys);
        if (j.type() == JoinType.INNER) {
            for (int k = 0; k < used; k++) {
                out = out.withEqual(k, DetermineJoinDistribution.name(j.buildKeys().get(k)));
            }
        }
        return out;
    }

    private Partitioning delivered(final PlanNode.Aggregation a) {
        final LocalShuffle how = of(a);
        switch (how.choice()) {
            case MERGE -> {
                return null;
            }
            case REUSE_SHUFFLE -> {
                final Partitioning in = delivered(a.input());
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
