package io.sluice.engine.plan;

import io.sluice.shuffle.Topology;
import io.sluice.zonemap.HeavyKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan with every planning decision taken, for one topology: what the {@link PhysicalPlanner} returns on
 * the coordinator, what {@link PlanCodec#encodeDecided} ships to the CNs and what {@link PipelineCompiler}
 * cuts into pipelines without deciding anything again. Each join, group-by, window, nested-loop join and
 * assert-one-row node carries its distribution (choice, boundaries, range key, reason); ORDER BY nodes
 * carry their sort distribution in the tree itself; the runtime filters, local exchanges and the exchanges
 * between pipelines ({@link DecidedExchange}) are listed.
 */
public final class DecidedPlan implements DistributionLookup {
    private final PlanNode root;
    private final StrategyConfig config;
    private final Topology topology;
    private final boolean distributed;
    private final Map<PlanNode, LocalShuffle> decisions;
    private final List<RuntimeFilterTarget> runtimeFilters;
    private final List<LocalExchange> localExchanges;
    private final List<DecidedExchange> exchanges;
    /** Each node's positions in {@link PlanWalk#preOrder} (a node reached twice has two). */
    private final Map<PlanNode, List<Integer>> positions = new IdentityHashMap<>();
    /** The exchanges by edge: position in the high half, input + 1 in the low. */
    private final Map<Long, DecidedExchange> byEdge = new HashMap<>();

    DecidedPlan(final PlanNode root, final StrategyConfig config, final Topology topology, final boolean distributed,
                final Map<PlanNode, LocalShuffle> decisions, final List<RuntimeFilterTarget> runtimeFilters,
                final List<LocalExchange> localExchanges, final List<DecidedExchange> exchanges) {
        this.root = root;
        this.config = config;
        this.topology = topology;
        this.distributed = distributed;
        this.decisions = Collections.unmodifiableMap(new IdentityHashMap<>(decisions));
        this.runtimeFilters = List.copyOf(runtimeFilters);
        this.localExchanges = List.copyOf(localExchanges);
        this.exchanges = List.copyOf(exchanges);
        final List<PlanNode> nodes = PlanWalk.preOrder(root);
        for (int i = 0; i < nodes.size(); i++) {
            positions.computeIfAbsent(nodes.get(i), n -> new ArrayList<>()).add(i);
        }
        for (int i = 0; i < this.exchanges.size(); i++) {
            final DecidedExchange e = this.exchanges.get(i);
            if (e.position() >= nodes.size()) {
                throw new IllegalArgumentException(e + " lies outside a plan of " + nodes.size() + " nodes");
            }
            if (e.id() != i || byEdge.put(edge(e.position(), e.input()), e) != null) {
                throw new IllegalArgumentException(e + " is listed as exchange " + i
                        + ": exchanges are listed by id, one per edge");
            }
        }
    }

    /** The plan tree as decided (ORDER BY nodes carry their sort distribution). */
    public Plan plan() {
        return Plan.of(root);
    }

    PlanNode root() {
        return root;
    }

    /** The strategy configuration it was decided under. */
    public StrategyConfig config() {
        return config;
    }

    /** The CNs x cores it was decided for. */
    public Topology topology() {
        return topology;
    }

    @Override
    public boolean distributed() {
        return distributed;
    }

    /** The distribution decided for a node. */
    @Override
    public LocalShuffle decisionOf(final PlanNode node) {
        final LocalShuffle how = decisions.get(node);
        if (how == null) {
            throw new IllegalStateException("no distribution was decided for " + node.getClass().getSimpleName() + " node"
                    + ": compile only plans the PhysicalPlanner decided, for the same tree");
        }
        return how;
    }

    /**
     * The heavy keys a join dispatches apart (their probe rows stay on their CN, their build rows go to every
     * bucket) or a group-by aggregates partially before its shuffle, heaviest first, with their shares
     * ({@link DetermineHeavyKeys}). Empty for every other node.
     */
    public List<HeavyKey> heavyKeysOf(final PlanNode node) {
        final LocalShuffle how = decisions.get(node);
        return how == null ? List.of() : how.heavyKeys();
    }

    /**
     * Every join that dispatches heavy keys apart and every group-by that aggregates partially for them, with
     * its heavy keys, in the plan's pre-order.
     */
    public Map<PlanNode, List<HeavyKey>> heavyKeys() {
        final Map<PlanNode, List<HeavyKey>> out = new LinkedHashMap<>();
        for (final PlanNode n : PlanWalk.preOrder(root)) {
            if (!heavyKeysOf(n).isEmpty()) {
                out.putIfAbsent(n, heavyKeysOf(n));
            }
        }
        return out;
    }

    /** Whether a node carries a decision. */
    boolean decided(final PlanNode node) {
        return decisions.containsKey(node);
    }

    /** The partitioning a node's rows come with, derived from the decisions ({@link DeliveredPartitioning}). */
    Partitioning delivered(final PlanNode node) {
        return DeliveredPartitioning.of(node, this);
    }

    /** The runtime filters to make, by id. */
    List<RuntimeFilterTarget> runtimeFilters() {
        return runtimeFilters;
    }

    /** The exchanges between pipelines, by id ({@link DetermineExchanges}). */
    public List<DecidedExchange> exchanges() {
        return exchanges;
    }

    /**
     * The exchange feeding input {@code input} of the {@code occurrence}-th position of {@code node} in
     * {@link PlanWalk#preOrder} (0 unless one node object is reached twice: a subtree shared in one process), or null
     * when that edge has none.
     *
     * @throws IllegalArgumentException when the node is not reached that often in this plan's tree
     */
    DecidedExchange exchangeAt(final PlanNode node, final int input, final int occurrence) {
        final List<Integer> at = positions.getOrDefault(node, List.of());
        if (occurrence >= at.size()) {
            throw new IllegalArgumentException("the " + node.getClass().getSimpleName() + " node is reached "
                    + at.size() + " times in the decided tree, not " + (occurrence + 1)
                    + ": compile only the tree the PhysicalPlanner decided");
        }
        return byEdge.get(edge(at.get(occurrence), input));
    }

    private static long edge(final int position, final int input) {
        return (long) position << 32 | (input + 1);
    }

    /** The local exchange in front of each operator input ({@link LocalExchange}). */
    public List<LocalExchange> localExchanges() {
        return localExchanges;
    }
}
