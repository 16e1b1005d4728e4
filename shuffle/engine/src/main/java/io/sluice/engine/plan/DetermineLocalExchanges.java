package io.sluice.engine.plan;

import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.LocalExchangeRule.GeneralRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides the local exchange in front of every operator input of a decided plan (seed 000), table-driven:
 * each operator is matched to one {@link LocalExchangeRule} row by the distribution its own rule chose
 * ({@link Distributions}, the ORDER BY's {@link SortDistribution}), which gives the type each input needs;
 * then the general rules, which take precedence, look at what the input comes from:
 * <ol>
 *   <li>through an exchange between CNs, or from a scan reading by storage distribution (a colocated scan),
 *       a HASH_SHUFFLE or BUCKET_HASH_SHUFFLE is a NOOP: the exchange or the storage bucketed the rows;</li>
 *   <li>from an input whose distribution already satisfies the operator (a side that keeps its partitioning,
 *       or rows already spread over the tasks where a PASSTHROUGH is asked for), NOOP;</li>
 *   <li>right after a scan that does not read by storage distribution, a PASSTHROUGH: its blocks are
 *       morsels any task takes (where the operator needs more, a scan row of its own says so).</li>
 * </ol>
 * What remains is what the compiler builds: a HASH_SHUFFLE or BUCKET_HASH_SHUFFLE is a shuffle between
 * the cores of one process (on a cluster the exchange between CNs already delivers each bucket to its
 * core), a PASS_TO_ONE a broadcast build that one pipeline of each CN receives. The decisions are
 * listed in plan order, inputs before the operator that reads them.
 */
final class DetermineLocalExchanges {
    /** What an operator input's rows come from, as the general rules ask. */
    private enum From {
        /** A scan not reading by storage distribution. */
        PLAIN_SCAN,
        /** A colocated scan: buckets as the storage distributes them. */
        STORAGE_SCAN,
        /** An exchange between CNs. */
        EXCHANGE,
        /** An operator's output in the same pipeline, spread over the tasks. */
        SPREAD,
        /** A sort's output, read in order by one task. */
        ORDERED
    }

    private final Distributions distributions;
    private final boolean distributed;
    /** The group-bys visited, by plan: an equal one again is not planned again in one process. */
    private final java.util.Set<PlanNode.Aggregation> grouped = new java.util.HashSet<>();
    private final List<LocalExchange> out = new ArrayList<>();

    private DetermineLocalExchanges(final Distributions distributions, final boolean distributed) {
        this.distributions = distributions;
        this.distributed = distributed;
    }

    /**
     * @param root        a plan whose ORDER BY nodes carry their distribution ({@link DetermineSortDistribution})
     * @param distributed whether it runs on a cluster (exchanges between CNs) or in one process
     */
    static List<LocalExchange> decide(final PlanNode root, final Distributions distributions,
                                      final boolean distributed) {
        final DetermineLocalExchanges rule = new DetermineLocalExchanges(distributions, distributed);
        rule.visit(root);
        return List.copyOf(rule.out);
    }

    /** Visits a node; returns what its output rows come from for the operator that reads them. */
    private From visit(final PlanNode node) {
        if (node instanceof PlanNode.Scan) {
            return From.PLAIN_SCAN;
        }
        if (node instanceof PlanNode.Filter f) {
            return visit(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return visit(p.input());
        }
        if (node instanceof PlanNode.Join j) {
            join(j);
            return From.SPREAD;
        }
        if (node instanceof PlanNode.Aggregation a) {
            // The same group-by again in one process is the first one's groups read again, as the compiler builds it.
            if (distributed || grouped.add(a)) {
                aggregate(a);
            }
            return From.SPREAD;
        }
        if (node instanceof PlanNode.OrderBy o) {
            orderBy(o);
            return From.ORDERED;
        }
        if (node instanceof PlanNode.UnionAll u) {
            for (final PlanNode in : u.inputs()) {
                scanFeeding(in, visit(in), "union all input");
            }
            return From.SPREAD;
        }
        if (node instanceof PlanNode.Limit l) {
            scanFeeding(l.input(), visit(l.input()), "limit");
            return From.SPREAD;
        }
        if (node instanceof PlanNode.Window w) {
            window(w);
            return From.SPREAD;
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            nestedLoopJoin(j);
            return From.SPREAD;
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            assertOneRow(a);
            return From.SPREAD;
        }
        throw new IllegalArgumentException("no local exchange rule for " + node.getClass().getSimpleName()
                + ": add its row to LocalExchangeRule and its case to DetermineLocalExchanges");
    }

    private void join(final PlanNode.Join j) {
        final PlanNode owner = j;
        final String name = "join " + j.probeKeys() + " = " + j.buildKeys();
        final LocalShuffle how = distributions.of(j);
        final LocalExchangeRule rule;
        if (j.type() == JoinType.NULL_AWARE_ANTI) {
            rule = LocalExchangeRule.HASH_JOIN_NULL_AWARE_ANTI;
        } else {
            rule = switch (how.choice()) {
                case BROADCAST -> LocalExchangeRule.HASH_JOIN_BROADCAST;
                case PKEY -> LocalExchangeRule.HASH_JOIN_BUCKET_SHUFFLE;
                case COLOCATE, REUSE_SHUFFLE -> LocalExchangeRule.HASH_JOIN_COLOCATE;
                default -> LocalExchangeRule.HASH_JOIN_OTHER;
            };
        }
        if (!how.choice().isShuffle()) {
            // A broadcast build reaches each CN through an exchange; the probe stays in its pipeline.
            final From build = visit(j.build());
            if (distributed) {
                scanFeeding(j.build(), build, "exchange sink");
            }
            place(owner, name, "build", rule, rule.build(), distributed ? From.EXCHANGE : build, false);
            place(owner, name, "probe", rule, rule.input(), visit(j.probe()), false);
            return;
        }
        side(owner, name, "build", rule, rule.build(), j.build(), how.kept().build(),
                how.choice() == Distribution.COLOCATE || how.colocatedScan());
        side(owner, name, "probe", rule, rule.input(), j.probe(), how.kept().probe(),
                how.choice() == Distribution.COLOCATE || how.colocatedScan());
    }

    /**
     * One bucketed input of a shuffle join or group-by: kept (its partitioning already is the operator's),
     * a colocated scan, or shuffled (between CNs through an exchange, between cores in one process).
     */
    private void side(final PlanNode owner, final String name, final String input, final LocalExchangeRule rule,
                      final LocalExchangeType planned, final PlanNode node, final boolean kept,
                      final boolean colocates) {
        if (kept) {
            visit(node);
            place(owner, name, input, rule, planned, From.SPREAD, true);
        } else if (colocates && RenamedScan.of(node) != null) {
            place(owner, name, input, rule, planned, From.STORAGE_SCAN, false);
        } else {
            final From from = visit(node);
            if (distributed) {
                scanFeeding(node, from, "exchange sink");
                place(owner, name, input, rule, planned, From.EXCHANGE, false);
            } else {
                scanFeeding(node, from, "local shuffle");
                place(owner, name, input, rule, planned, From.SPREAD, false);
            }
        }
    }

    private void aggregate(final PlanNode.Aggregation a) {
        final PlanNode owner = a;
        final List<String> keys = new ArrayList<>();
        for (final NamedExpr k : a.keys()) {
            keys.add(k.name());
        }
        final String name = "group by " + keys;
        final LocalShuffle how = distributions.of(a);
        if (how.choice() == Distribution.MERGE) {
            final LocalExchangeRule rule = a.keys().isEmpty() ? LocalExchangeRule.AGG_BLOCKING_NO_KEYS
                    : LocalExchangeRule.AGG_STREAMING;
            place(owner, name, "input", rule, rule.input(), visit(a.input()), false);
            return;
        }
        final LocalExchangeRule rule;
        if (how.choice() == Distribution.COLOCATE) {
            rule = LocalExchangeRule.AGG_COLOCATE;
        } else if (unionBelow(a.input())) {
            rule = LocalExchangeRule.SET_OPERATION_OTHER;
        } else if (a.aggregates().stream().anyMatch(x -> x.function() == AggregateFunction.COUNT_DISTINCT)) {
            rule = LocalExchangeRule.AGG_DISTINCT_STREAMING;
        } else {
            rule = LocalExchangeRule.AGG_BLOCKING_KEYS;
        }
        side(owner, name, "input", rule, rule.input(), a.input(), how.choice() == Distribution.REUSE_SHUFFLE,
                how.choice() == Distribution.COLOCATE);
    }

    /**
     * A window: without PARTITION BY all rows are one partition, gathered (analytic rule 1); with it the
     * partitions meet by a hash shuffle on their keys (rule 2). The window sorts each partition itself,
     * so the seed's rule 3 (a window behind its own sort node) and the colocated case of rule 2 have no
     * plan here.
     */
    private void window(final PlanNode.Window w) {
        final PlanNode owner = w;
        final String name = "window partition by " + w.partitionBy() + " order by " + w.orderBy();
        final LocalShuffle how = distributions.of(w);
        if (how.choice() == Distribution.GATHER) {
            oneGroup(owner, name, LocalExchangeRule.ANALYTIC_NO_PARTITION, w.input());
            return;
        }
        side(owner, name, "input", LocalExchangeRule.ANALYTIC_PARTITION, LocalExchangeRule.ANALYTIC_PARTITION.input(),
                w.input(), how.choice() == Distribution.REUSE_SHUFFLE, false);
    }

    /**
     * A scalar subquery's row count: in all, where every row meets (the assert-rows rule); per key of a
     * decorrelated subquery, a count per key, which needs each key's rows in one place as a group-by does
     * (aggregation rule 5).
     */
    private void assertOneRow(final PlanNode.AssertOneRow a) {
        final PlanNode owner = a;
        final String name = "assert one row" + (a.keys().isEmpty() ? "" : " per " + a.keys());
        final LocalShuffle how = distributions.of(a);
        if (how.choice() == Distribution.GATHER) {
            oneGroup(owner, name, LocalExchangeRule.ASSERT_ROWS, a.input());
            return;
        }
        side(owner, name, "input", LocalExchangeRule.AGG_BLOCKING_KEYS, LocalExchangeRule.AGG_BLOCKING_KEYS.input(),
                a.input(), how.choice() == Distribution.REUSE_SHUFFLE, false);
    }

    /** An operator whose rows all meet in one sink: gathered to the coordinator on a cluster. */
    private void oneGroup(final PlanNode owner, final String name, final LocalExchangeRule rule, final PlanNode input) {
        final From from = visit(input);
        if (distributed) {
            scanFeeding(input, from, "exchange sink");
            place(owner, name, "input", rule, rule.input(), From.EXCHANGE, false);
        } else {
            place(owner, name, "input", rule, rule.input(), from, false);
        }
    }

    /**
     * A nested-loop join (rule 5; its rule 2 has no plan here, NOT IN is a hash join): the build is
     * materialized once per CN and read by every task, the probe rows stay where they are.
     */
    private void nestedLoopJoin(final PlanNode.NestedLoopJoin j) {
        final PlanNode owner = j;
        final String name = j.type().name().toLowerCase(java.util.Locale.ROOT) + " nested loop join on "
                + j.condition();
        final LocalExchangeRule rule = LocalExchangeRule.NL_JOIN_OTHER;
        final From build = visit(j.build());
        if (distributed) {
            scanFeeding(j.build(), build, "exchange sink");
        }
        place(owner, name, "build", rule, rule.build(), distributed ? From.EXCHANGE : build, false);
        final From probe = visit(j.probe());
        if (distributed && distributions.of(j).choice() == Distribution.ROUND_ROBIN) {
            scanFeeding(j.probe(), probe, "round-robin exchange sink");
            place(owner, name, "probe", rule, rule.input(), From.EXCHANGE, false);
        } else {
            place(owner, name, "probe", rule, rule.input(), probe, false);
        }
    }

    /** Whether a group-by deduplicates a union: a set operation. */
    private static boolean unionBelow(final PlanNode node) {
        if (node instanceof PlanNode.Project p) {
            return unionBelow(p.input());
        }
        return node instanceof PlanNode.UnionAll;
    }

    private void orderBy(final PlanNode.OrderBy o) {
        // Rows already all on the coordinator are sorted there, whatever was decided: nothing to merge.
        final LocalExchangeRule rule = o.distribution() == SortDistribution.MERGE_SORT
                && !(distributed && distributions.onCoordinator(o.input()))
                ? LocalExchangeRule.SORT_PARTIAL : LocalExchangeRule.SORT_OTHER;
        place(o, "order by " + o.keys(), "input", rule, rule.input(), visit(o.input()), false);
    }

    /** A row for a plain scan whose rows go on to something that is not its operator's input: a PASSTHROUGH. */
    private void scanFeeding(final PlanNode node, final From from, final String consumer) {
        if (from == From.PLAIN_SCAN) {
            out.add(new LocalExchange(scanNode(node), "scan " + scanned(node), consumer, null, LocalExchangeType.PASSTHROUGH,
                    GeneralRule.AFTER_PLAIN_SCAN, "a scan not read by storage distribution"));
        }
    }

    private static PlanNode scanNode(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return scanNode(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return scanNode(p.input());
        }
        return node;
    }

    private static String scanned(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.table();
        }
        if (node instanceof PlanNode.Filter f) {
            return scanned(f.input());
        }
        return scanned(((PlanNode.Project) node).input());
    }

    /** Applies the general rules to the row's type for one input and records the outcome. */
    private void place(final PlanNode node, final String operator, final String input, final LocalExchangeRule rule,
                       final LocalExchangeType planned, final From from, final boolean satisfied) {
        final boolean shuffle = planned == LocalExchangeType.HASH_SHUFFLE
                || planned == LocalExchangeType.BUCKET_HASH_SHUFFLE;
        final boolean passthrough = planned == LocalExchangeType.PASSTHROUGH
                || planned == LocalExchangeType.ADAPTIVE_PASSTHROUGH;
        final LocalExchange decided;
        if (from == From.PLAIN_SCAN && (passthrough || planned == LocalExchangeType.NOOP)) {
            decided = new LocalExchange(node, operator, input, rule, LocalExchangeType.PASSTHROUGH,
                    GeneralRule.AFTER_PLAIN_SCAN, "right after a scan not read by storage distribution");
        } else if (shuffle && (from == From.EXCHANGE || from == From.STORAGE_SCAN)) {
            decided = new LocalExchange(node, operator, input, rule, LocalExchangeType.NOOP,
                    GeneralRule.AFTER_EXCHANGE_OR_STORAGE_SCAN, from == From.EXCHANGE
                    ? "the exchange between CNs delivers each bucket to its core"
                    : "a colocated scan reads each bucket's blocks");
        } else if (shuffle && satisfied) {
            decided = new LocalExchange(node, operator, input, rule, LocalExchangeType.NOOP, GeneralRule.ALREADY_SATISFIED,
                    "the input keeps the buckets it already has");
        } else if (passthrough && from != From.ORDERED) {
            decided = new LocalExchange(node, operator, input, rule, LocalExchangeType.NOOP, GeneralRule.ALREADY_SATISFIED,
                    "the rows are already spread over the tasks");
        } else {
            if (from == From.PLAIN_SCAN) {
                out.add(new LocalExchange(node, operator, input, null, LocalExchangeType.PASSTHROUGH,
                        GeneralRule.AFTER_PLAIN_SCAN, "right after a scan not read by storage distribution"));
            }
            decided = new LocalExchange(node, operator, input, rule, planned, null, shuffle
                    ? "rows move between the cores of this process" : "as the table says");
        }
        out.add(decided);
    }
}
