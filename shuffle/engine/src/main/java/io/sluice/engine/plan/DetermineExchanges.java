package io.sluice.engine.plan;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places the exchanges of a decided plan on its edges, from each operator's distribution: a shuffle where a join
 * side, group-by, window or assertion needs its rows bucketed and they are not (a colocated scan or a kept
 * partitioning needs none), a broadcast of a broadcast join's build side, a round-robin of a nested-loop join's
 * probe rows, and, on a cluster, a gather wherever rows must all reach the coordinator (the result, a merge group,
 * a sort, a limit) and are not there yet. Ids go by edge in {@link PlanWalk#preOrder}, so every CN names an
 * exchange alike whatever order it compiles in. In one process only the shuffles between cores remain.
 * {@link PipelineCompiler} checks each against what the node's decision needs on that edge (mode, fragment,
 * keys) and that every one is used, so a plan and a compiler that disagree fail by name, never pair wrongly.
 */
final class DetermineExchanges {
    private final DistributionLookup decisions;
    private final List<RuntimeFilterTarget> filters;
    private final boolean distributed;
    private final Map<PlanNode, Integer> sizes = new IdentityHashMap<>();
    private final List<DecidedExchange> placed = new ArrayList<>();

    private DetermineExchanges(final DistributionLookup decisions, final List<RuntimeFilterTarget> filters) {
        this.decisions = decisions;
        this.filters = filters;
        this.distributed = decisions.distributed();
    }

    /**
     * @param root      the decided tree (ORDER BY nodes carry their sort distribution)
     * @param decisions each join's, group-by's, window's, nested-loop join's and assertion's distribution
     * @param filters   the runtime filters decided (a broadcast join whose filter serves a scan below a group-by of
     *                  its probe side builds first, so it broadcasts even to a probe on the coordinator)
     * @return the exchanges by id
     */
    static List<DecidedExchange> decide(final PlanNode root, final DistributionLookup decisions,
                                        final List<RuntimeFilterTarget> filters) {
        final DetermineExchanges rule = new DetermineExchanges(decisions, filters);
        if (!rule.place(root, 0) && rule.distributed) {
            rule.add(0, DecidedExchange.RESULT, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null);
        }
        rule.placed.sort(Comparator.comparingInt(DecidedExchange::position).thenComparingInt(DecidedExchange::input));
        final List<DecidedExchange> out = new ArrayList<>(rule.placed.size());
        for (final DecidedExchange e : rule.placed) {
            out.add(new DecidedExchange(out.size(), e.position(), e.input(), e.mode(), e.fragment(), e.keys(),
                    e.boundaries()));
        }
        return out;
    }

    private void add(final int position, final int input, final DispatchMode mode, final FragmentType fragment,
                     final List<String> keys, final RangeBoundaries boundaries) {
        // Numbered once all are placed: the id is the edge's rank, not the order they are found in.
        placed.add(new DecidedExchange(placed.size(), position, input, mode, fragment, keys, boundaries));
    }

    /** Places the exchanges of the subtree at {@code at}; returns whether its rows end up all on the coordinator. */
    private boolean place(final PlanNode node, final int at) {
        if (node instanceof PlanNode.Scan) {
            return false;
        }
        if (node instanceof PlanNode.Filter f) {
            return place(f.input(), at + 1);
        }
        if (node instanceof PlanNode.Project p) {
            return place(p.input(), at + 1);
        }
        if (node instanceof PlanNode.Aggregation a) {
            return aggregation(a, at);
        }
        if (node instanceof PlanNode.Join j) {
            return join(j, at);
        }
        if (node instanceof PlanNode.OrderBy o) {
            final boolean single = place(o.input(), at + 1);
            if (single || o.distribution() == SortDistribution.LOCAL_SORT) {
                return single;
            }
            add(at, 0, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null);
            return true;
        }
        if (node instanceof PlanNode.UnionAll u) {
            boolean single = true;
            int input = at + 1;
            for (final PlanNode in : u.inputs()) {
                single &= place(in, input);
                input += size(in);
            }
            return single;
        }
        if (node instanceof PlanNode.Window w) {
            return keyed(w, w.input(), w.partitionBy(), at);
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return keyed(a, a.input(), a.keys(), at);
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return nestedLoopJoin(j, at);
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        return gathered(place(l.input(), at + 1), at);
    }

    /** On a cluster, a gather into the only input of the node at {@code at} unless its rows are there already. */
    private boolean gathered(final boolean single, final int at) {
        if (!distributed) {
            return single;
        }
        if (!single) {
            add(at, 0, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null);
        }
        return true;
    }

    private boolean aggregation(final PlanNode.Aggregation a, final int at) {
        final LocalShuffle how = decisions.decisionOf(a);
        switch (how.choice()) {
            case MERGE -> {
                return gathered(place(a.input(), at + 1), at);
            }
            case REUSE_SHUFFLE -> {
                return place(a.input(), at + 1);
            }
            default -> {
                final List<String> keys = new ArrayList<>();
                if (how.rangeKey() != null) {
                    keys.add(how.rangeKey());
                } else {
                    for (final NamedExpr k : a.keys()) {
                        if (k.expr() instanceof ColumnRef r) {
                            keys.add(r.name());
                        }
                    }
                }
                if (!how.perKey()) {
                    return bucketed(a.input(), at + 1, keys, how, DispatchMode.TO_OWNER, at, 0);
                }
                // Aggregated partially first: the partial states are shuffled by the group keys' output names.
                place(a.input(), at + 1);
                final List<String> stateKeys = new ArrayList<>();
                for (final String column : keys) {
                    for (final NamedExpr k : a.keys()) {
                        if (k.expr() instanceof ColumnRef r && r.name().equals(column)) {
                            stateKeys.add(k.name());
                            break;
                        }
                    }
                }
                shuffle(at, 0, DispatchMode.TO_OWNER, stateKeys, how);
                return false;
            }
        }
    }

    private boolean join(final PlanNode.Join j, final int at) {
        final LocalShuffle how = decisions.decisionOf(j);
        final int buildAt = at + 1 + size(j.probe());
        if (how.choice() == Distribution.BROADCAST) {
            final boolean single = place(j.probe(), at + 1);
            final boolean buildSingle = place(j.build(), buildAt);
            if (distributed) {
                if (single && !buildsFirst(j)) {
                    if (!buildSingle) {
                        add(at, 1, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null);
                    }
                } else {
                    add(at, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, List.of(), null);
                }
            }
            return single;
        }
        final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
        final List<String> probeKeys = new ArrayList<>();
        final List<String> buildKeys = new ArrayList<>();
        for (int k = 0; k < used; k++) {
            probeKeys.add(DeliveredPartitioning.name(j.probeKeys().get(k)));
            buildKeys.add(DeliveredPartitioning.name(j.buildKeys().get(k)));
        }
        final boolean hybrid = how.choice() == Distribution.HYBRID;
        if (how.kept().build()) {
            place(j.build(), buildAt);
        } else {
            bucketed(j.build(), buildAt, buildKeys, how, hybrid ? DispatchMode.ALL_CN : DispatchMode.TO_OWNER, at, 1);
        }
        return how.kept().probe() ? place(j.probe(), at + 1)
                : bucketed(j.probe(), at + 1, probeKeys, how, hybrid ? DispatchMode.LOCAL_ONLY : DispatchMode.TO_OWNER, at, 0);
    }

    /**
     * Whether a broadcast join's runtime filter serves a scan whose rows reach the probe side only through a
     * group-by: the build then runs first, before the probe side's rows are known to be on the coordinator alone.
     */
    private boolean buildsFirst(final PlanNode.Join j) {
        RuntimeFilterTarget target = null;
        for (final RuntimeFilterTarget t : filters) {
            if (t.join() == j) {
                target = t;
            }
        }
        return target != null && RuntimeFilterTarget.belowAggregation(j.probe(), target.scan());
    }

    /** A window's or assertion's input with equal keys together, as decided. */
    private boolean keyed(final PlanNode node, final PlanNode input, final List<String> keys, final int at) {
        final LocalShuffle how = decisions.decisionOf(node);
        return switch (how.choice()) {
            case GATHER -> gathered(place(input, at + 1), at);
            case REUSE_SHUFFLE -> place(input, at + 1);
            default -> bucketed(input, at + 1, keys, how, DispatchMode.TO_OWNER, at, 0);
        };
    }

    private boolean nestedLoopJoin(final PlanNode.NestedLoopJoin j, final int at) {
        final LocalShuffle how = decisions.decisionOf(j);
        boolean single = place(j.probe(), at + 1);
        if (distributed && how.choice() == Distribution.ROUND_ROBIN) {
            add(at, 0, DispatchMode.ANY, FragmentType.ROUND_ROBIN, List.of(), null);
            single = false;
        }
        final boolean buildSingle = place(j.build(), at + 1 + size(j.probe()));
        if (distributed) {
            if (!single) {
                add(at, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, List.of(), null);
            } else if (!buildSingle) {
                add(at, 1, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null);
            }
        }
        return single;
    }

    /**
     * A node's rows bucketed by {@code keys} for input {@code input} of the node at {@code at}: read so by a colocated
     * scan when the node is a (renamed) scan of the key and the decision colocates it, else shuffled
     * ({@code nodeAt} is the node's own position).
     */
    private boolean bucketed(final PlanNode node, final int nodeAt, final List<String> keys, final LocalShuffle how,
                             final DispatchMode mode, final int at, final int input) {
        final RenamedScan renamed = RenamedScan.of(node);
        if ((how.choice() == Distribution.COLOCATE || how.colocatedScan()) && renamed != null
                && renamed.scanColumn(keys.get(0)) != null) {
            return false;
        }
        place(node, nodeAt);
        shuffle(at, input, mode, keys, how);
        return false;
    }

    private void shuffle(final int at, final int input, final DispatchMode mode, final List<String> keys,
                         final LocalShuffle how) {
        final RangeBoundaries range = how.boundaries();
        add(at, input, mode, range != null ? FragmentType.RANGE : FragmentType.HASH, keys, range);
    }

    /** The number of nodes in a subtree, each node reached twice counted twice. */
    private int size(final PlanNode node) {
        final Integer known = sizes.get(node);
        if (known != null) {
            return known;
        }
        int n = 1;
        for (final PlanNode in : PlanWalk.inputs(node)) {
            n += size(in);
        }
        sizes.put(node, n);
        return n;
    }
}
