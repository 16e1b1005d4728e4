package io.sluice.dispatch.explain;

import io.sluice.engine.exec.AggregationPhase;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.PlanStats;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The estimates of the explained tree: each operator matched to the plan node it runs (an exchange to
 * the node whose rows it moves, both halves of a split aggregation or sort to the same node), its rows
 * from the zonemaps ({@link PlanStats}) and {@link CostModel}'s cost, how its rows are bucketed, and for
 * each exchange the rows the plan sends across CNs and its partitioning (HASH, RANGE, PKEY, BROADCAST).
 */
final class PlanEstimates {
    /** Keys sampled per block, evenly over its zonemap's range, to see which CNs own its rows. */
    private static final int SAMPLES = 64;

    private final PlanStats stats;
    private final Topology topology;
    private final boolean distributed;

    PlanEstimates(final PlanStats stats, final Topology topology, final boolean distributed) {
        this.stats = stats;
        this.topology = topology;
        this.distributed = distributed;
    }

    /** Matches an operator and those below it to the plan nodes they run, from plan node {@code n} down. */
    void match(final OperatorNode x, final PlanNode n) {
        if (n == null) {
            x.children.forEach(c -> match(c, null));
            return;
        }
        switch (x.kind) {
            case EXCHANGE_IN, EXCHANGE_OUT, OTHER -> {
                x.plan = n;
                x.children.forEach(c -> match(c, n));
            }
            case SCAN, COLOCATED_SCAN -> x.plan = n instanceof PlanNode.Scan ? n : null;
            case FILTER -> {
                x.plan = n;
                match(x.children.get(0), n instanceof PlanNode.Filter f ? f.input() : n);
            }
            case PROJECT -> {
                x.plan = n;
                match(x.children.get(0), n instanceof PlanNode.Project p ? p.input() : n);
            }
            case HASH_JOIN -> {
                if (n instanceof PlanNode.Join j) {
                    x.plan = j;
                    match(x.children.get(0), j.probe());
                    match(x.children.get(1), j.build());
                } else {
                    match(x, null);
                }
            }
            case NESTED_LOOP_JOIN -> {
                if (n instanceof PlanNode.NestedLoopJoin j) {
                    x.plan = j;
                    match(x.children.get(0), j.probe());
                    match(x.children.get(1), j.build());
                } else {
                    match(x, null);
                }
            }
            case GROUP_BY -> {
                if (n instanceof PlanNode.Aggregation a) {
                    x.plan = a;
                    final boolean fin = ((HashAggregate) x.exec).phase() == AggregationPhase.FINAL;
                    match(x.children.get(0), fin ? a : a.input());
                } else {
                    match(x, null);
                }
            }
            case SORT, SORTED_RUNS, MERGE_SORT, MERGE_SORT_IN -> {
                if (n instanceof PlanNode.OrderBy o) {
                    x.plan = o;
                    final OperatorNode below = belowExchanges(x.children.get(0));
                    final boolean pairs = x.kind == OperatorKind.MERGE_SORT || x.kind == OperatorKind.MERGE_SORT_IN
                            || (x.kind == OperatorKind.SORT && below.kind == OperatorKind.SORT && o.limit() != Sort.NO_LIMIT
                            && !(o.input() instanceof PlanNode.OrderBy) && below != x.children.get(0));
                    if (pairs && below.kind == OperatorKind.SORT) {
                        below.topN = true;
                    }
                    match(x.children.get(0), pairs ? o : o.input());
                } else {
                    match(x, null);
                }
            }
            case LIMIT -> {
                if (n instanceof PlanNode.Limit l) {
                    x.plan = l;
                    match(x.children.get(0), l.input());
                } else {
                    match(x, null);
                }
            }
            case UNION_ALL -> {
                if (n instanceof PlanNode.UnionAll u && u.inputs().size() == x.children.size()) {
                    x.plan = u;
                    for (int i = 0; i < x.children.size(); i++) {
                        match(x.children.get(i), u.inputs().get(i));
                    }
                } else {
                    match(x, null);
                }
            }
        }
    }

    private static OperatorNode belowExchanges(final OperatorNode n) {
        OperatorNode x = n;
        while ((x.kind == OperatorKind.EXCHANGE_IN || x.kind == OperatorKind.EXCHANGE_OUT) && !x.children.isEmpty()) {
            x = x.children.get(0);
        }
        return x;
    }

    /** The rows, width, bucketing and cost of an operator and those below it (after {@link #match}). */
    void estimate(final OperatorNode x) {
        for (final OperatorNode c : x.children) {
            estimate(c);
        }
        final PlanNode n = x.plan;
        final long in = x.children.isEmpty() ? -1 : x.children.stream().mapToLong(c -> Math.max(0, c.est)).sum();
        final int cns = topology.cnCount();
        x.width = n != null ? stats.rowWidth(n) : 8L * Math.max(1, x.output == null ? 1 : x.output.size());
        switch (x.kind) {
            case EXCHANGE_OUT, OTHER -> x.est = x.children.isEmpty() ? (n == null ? -1 : stats.rows(n))
                    : x.children.get(0).est;
            case EXCHANGE_IN -> x.est = everyCn(x.exchange.mode()) ? CostModel.times(x.children.get(0).est, cns)
                    : x.children.get(0).est;
            case FILTER, PROJECT -> x.est = n != null && (n instanceof PlanNode.Filter || n instanceof PlanNode.Project)
                    && x.plan != x.children.get(0).plan ? stats.rows(n) : x.children.get(0).est;
            case GROUP_BY -> {
                final PlanNode.Aggregation a = (PlanNode.Aggregation) n;
                final boolean partial = a != null && ((HashAggregate) x.exec).phase() == AggregationPhase.PARTIAL;
                x.est = a == null ? -1 : partial ? Math.min(stats.rows(a.input()), CostModel.times(stats.rows(a), cns))
                        : stats.rows(a);
            }
            case SORTED_RUNS -> {
                final PlanNode.OrderBy o = (PlanNode.OrderBy) n;
                x.est = o == null ? in : o.limit() == Sort.NO_LIMIT ? in
                        : Math.min(in, CostModel.times(o.limit(), topology.bucketCount()));
            }
            case SORT -> {
                final PlanNode.OrderBy o = (PlanNode.OrderBy) n;
                x.est = o == null ? in : x.topN ? Math.min(in, CostModel.times(o.limit(), cns)) : stats.rows(o);
            }
            default -> x.est = n == null ? -1 : stats.rows(n);
        }
        x.partitioning = partitioning(x);
        if (x.kind == OperatorKind.HASH_JOIN) {
            markPkey(x);
        }
        long own;
        switch (x.kind) {
            case SCAN, COLOCATED_SCAN -> own = CostModel.scan(x.est, x.width);
            case HASH_JOIN -> own = CostModel.hashJoin(x.children.get(0).est, x.children.get(1).est);
            case NESTED_LOOP_JOIN -> own = CostModel.nestedLoopJoin(x.children.get(0).est, x.children.get(1).est);
            case SORT, SORTED_RUNS -> own = CostModel.sort(in);
            case MERGE_SORT, MERGE_SORT_IN -> own = CostModel.merge(in, topology.bucketCount());
            case EXCHANGE_OUT -> {
                x.cross = crossing(x);
                x.partitionLabel = partitionLabel(x);
                own = CostModel.exchangeOut(x.est, x.width, x.cross);
            }
            case EXCHANGE_IN -> own = CostModel.exchangeIn(x.est, x.width);
            default -> own = CostModel.perRow(in);
        }
        long cost = own;
        for (final OperatorNode c : x.children) {
            cost = CostModel.plus(cost, c.cost);
        }
        x.cost = cost;
    }

    private static boolean everyCn(final DispatchMode mode) {
        return mode == DispatchMode.BROADCAST || mode == DispatchMode.ALL_CN;
    }

    /** How a node's output rows are bucketed, where the plan keeps them where an earlier bucketing put them. */
    private Bucketing partitioning(final OperatorNode x) {
        switch (x.kind) {
            case COLOCATED_SCAN -> {
                final ColocatedScan scan = (ColocatedScan) x.exec;
                return new Bucketing(Set.of(scan.rowType().name(scan.keyColumn())), scan.bucketFunction(), true);
            }
            case EXCHANGE_IN -> {
                final RecordedExchange e = x.exchange;
                return e.function() != null && e.keys().size() == 1 && e.mode() == DispatchMode.TO_OWNER
                        ? new Bucketing(Set.of(e.keys().get(0)), e.function(), false) : null;
            }
            case FILTER, EXCHANGE_OUT -> {
                return x.children.get(0).partitioning;
            }
            case PROJECT -> {
                final Bucketing p = x.children.get(0).partitioning;
                if (p == null) {
                    return null;
                }
                final Set<String> kept = new HashSet<>();
                for (int c = 0; c < x.output.size(); c++) {
                    final String name = x.output.name(c);
                    if (p.columns().contains(name) && !(x.plan instanceof PlanNode.Project)) {
                        kept.add(name);
                    }
                }
                if (x.plan instanceof PlanNode.Project proj) {
                    for (final NamedExpr item : proj.items()) {
                        if (item.expr() instanceof ColumnRef r && p.columns().contains(r.name())) {
                            kept.add(item.name());
                        }
                    }
                }
                return kept.isEmpty() ? null : new Bucketing(kept, p.function(), p.colocated());
            }
            case HASH_JOIN -> {
                if (!(x.plan instanceof PlanNode.Join j)) {
                    return null;
                }
                // A right semi or anti join's rows are its build side's, as they came.
                final Bucketing p = x.children.get(j.type().buildColumnsOnly() ? 1 : 0).partitioning;
                if (p == null || j.type().buildColumnsOnly()) {
                    return p;
                }
                final Set<String> cols = new HashSet<>(p.columns());
                if (j.type() == JoinType.INNER) {
                    for (int k = 0; k < j.probeKeys().size(); k++) {
                        if (j.probeKeys().get(k) instanceof ColumnRef pr && p.columns().contains(pr.name())
                                && j.buildKeys().get(k) instanceof ColumnRef br) {
                            cols.add(br.name());
                        }
                    }
                }
                return new Bucketing(cols, p.function(), p.colocated());
            }
            case GROUP_BY -> {
                final Bucketing p = x.children.get(0).partitioning;
                if (p == null || ((HashAggregate) x.exec).phase() != AggregationPhase.SINGLE
                        || !(x.plan instanceof PlanNode.Aggregation a)) {
                    return null;
                }
                final Set<String> cols = new HashSet<>();
                for (final NamedExpr k : a.keys()) {
                    if (k.expr() instanceof ColumnRef r && p.columns().contains(r.name())) {
                        cols.add(k.name());
                    }
                }
                return cols.isEmpty() ? null : new Bucketing(cols, p.function(), p.colocated());
            }
            default -> {
                return null;
            }
        }
    }

    /** The rows the plan sends from one CN to another through an exchange: 0 where none leave their CN. */
    private long crossing(final OperatorNode x) {
        final int cns = topology.cnCount();
        final long rows = x.est;
        final DispatchMode mode = x.exchange.mode();
        if (cns == 1 || mode == DispatchMode.LOCAL_ONLY || !distributed) {
            return 0;
        }
        if (rows < 0) {
            return -1;
        }
        if (everyCn(mode)) {
            return CostModel.times(rows, cns - 1);
        }
        if (mode == DispatchMode.TO_OWNER && alreadyBucketed(x.children.get(0).partitioning, x.exchange)) {
            return 0;
        }
        final double leaving = mode == DispatchMode.TO_OWNER ? leavingShare(x) : -1;
        return leaving >= 0 ? Math.round(rows * leaving) : rows - rows / cns;
    }

    /**
     * For a range shuffle of rows read by a scan of a stored table (through filters, projections, join
     * probes and exchanges that keep rows on their CN) on the scan's own key column: the share of rows that leave their CN, from the blocks' zonemaps.
     * Block b is read on CN b mod C, and its rows are taken as spread evenly over its key range; in a table
     * stored in key order most of a block lies in a few buckets, so the share is far from (C-1)/C. -1 when
     * the rows do not come so.
     */
    private double leavingShare(final OperatorNode out) {
        if (out.exchange.function() == null || !(out.exchange.function().owner() instanceof RangeBucketFunction range) || out.exchange.keys().size() != 1) {
            return -1;
        }
        OperatorNode n = out.children.get(0);
        while (n.kind == OperatorKind.FILTER || n.kind == OperatorKind.PROJECT || n.kind == OperatorKind.HASH_JOIN
                || n.kind == OperatorKind.EXCHANGE_IN && n.exchange.mode() == DispatchMode.LOCAL_ONLY
                || n.kind == OperatorKind.EXCHANGE_OUT && n.exchange.mode() == DispatchMode.LOCAL_ONLY) {
            // A LOCAL_ONLY exchange (a hybrid join's probe side) keeps every row on the CN that read it; a right
            // semi or anti join's rows are its build side's.
            n = n.kind == OperatorKind.HASH_JOIN && n.plan instanceof PlanNode.Join j && j.type().buildColumnsOnly()
                    ? n.children.get(1) : n.children.get(0);
        }
        final String key = out.exchange.keys().get(0);
        if (n.kind != OperatorKind.SCAN || !(n.exec instanceof TableScan scan) || !scan.rowType().names().contains(key)) {
            return -1;
        }
        final BlockTable table = scan.table();
        final int column = table.schema().indexOf(key);
        if (column < 0 || table.blockCount() == 0) {
            return -1;
        }
        double all = 0;
        double leaving = 0;
        for (int b = 0; b < table.blockCount(); b++) {
            final ZoneMap z = table.zoneMap(b, column);
            final int rows = table.blockRowCount(b);
            if (rows == 0 || z.nullCount() == rows) {
                continue;
            }
            final int cn = b % topology.cnCount();
            int away = 0;
            for (int s = 0; s < SAMPLES; s++) {
                final long k = z.min() + (long) ((z.max() - (double) z.min()) * (s + 0.5) / SAMPLES);
                away += range.bucket(k) / topology.coresPerCn() == cn ? 0 : 1;
            }
            all += rows;
            leaving += rows * (double) away / SAMPLES;
        }
        return all == 0 ? -1 : leaving / all;
    }

    private static boolean alreadyBucketed(final Bucketing p, final RecordedExchange e) {
        return p != null && e.function() != null && e.keys().size() == 1 && p.columns().contains(e.keys().get(0))
                && sameBuckets(p.function(), e.function());
    }

    private static boolean sameBuckets(final BucketFunction a, final BucketFunction b) {
        if (a == b) {
            return true;
        }
        return ownerOnly(a) instanceof RangeBucketFunction ra && ownerOnly(b) instanceof RangeBucketFunction rb
                && ra.kind() == rb.kind() && Arrays.equals(ra.cutPoints(), rb.cutPoints());
    }

    /** The owner function of a per-key dispatch that only drops null keys (every other row to its owner). */
    private static BucketFunction ownerOnly(final BucketFunction f) {
        return f instanceof HeavyKeyBucketFunction h && h.heavyKeys().size() == 0 ? h.owner() : f;
    }

    /** HASH, RANGE, PKEY (bucketed like the other side of its join, which stays where it was read), BROADCAST or none. */
    private String partitionLabel(final OperatorNode x) {
        final RecordedExchange e = x.exchange;
        if (e.mode() == DispatchMode.GATHER) {
            return "";
        }
        if (everyCn(e.mode()) && e.function() == null) {
            return "BROADCAST";
        }
        return e.function() != null && e.function().owner() instanceof RangeBucketFunction ? "RANGE" : "HASH";
    }

    /**
     * A join side shuffled into the buckets its other side already has in place (read colocated, or kept from
     * a shuffle below it): seed 001's PKEY.
     */
    private static void markPkey(final OperatorNode join) {
        markPkey(join.children.get(0), join.children.get(1));
        markPkey(join.children.get(1), join.children.get(0));
    }

    private static void markPkey(final OperatorNode kept, final OperatorNode moved) {
        final Bucketing buckets = kept.partitioning;
        if (buckets == null || kept.kind == OperatorKind.EXCHANGE_IN || moved.kind != OperatorKind.EXCHANGE_IN) {
            return;
        }
        final OperatorNode out = moved.children.get(0);
        if (out.exchange.function() != null && sameBuckets(buckets.function(), out.exchange.function())) {
            out.partitionLabel = "PKEY";
        }
    }
}
