package io.sluice.dispatch.explain;

import io.sluice.engine.exec.AggregationPhase;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.Filter;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.HashJoinProbe;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Limit;
import io.sluice.engine.exec.MergeSort;
import io.sluice.engine.exec.OperatorFactory;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.Projection;
import io.sluice.engine.exec.ResultCollector;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortedRuns;
import io.sluice.engine.exec.Source;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.FragmentType;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.PlanStats;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the {@link ExplainPlan} of a query once, from what the compiler made for the coordinator's CN
 * (its pipelines, their fragment types, the exchanges it asked for) and the plan tree it compiled:
 * the pipelines are walked back from the result into an operator tree (a breaker sink's output is the
 * sink's operator, a join probe and its build are one HASH JOIN, an exchange is an EXCHANGE OUT under an
 * EXCHANGE IN, a gathered merge sort is one EXCHANGE IN MERGE SORT DISTR); each operator is matched to
 * the plan node it runs (an exchange to the node whose rows it moves) for its zonemap estimate
 * ({@link PlanStats}); fragments are cut at the exchanges.
 */
public final class ExplainBuilder {
    private enum Kind {
        SCAN, COLOCATED_SCAN, FILTER, PROJECT, HASH_JOIN, GROUP_BY, SORT, SORTED_RUNS, MERGE_SORT, MERGE_SORT_IN,
        LIMIT, UNION_ALL, EXCHANGE_IN, EXCHANGE_OUT, OTHER
    }

    /** An operator of the tree while it is being built. */
    private static final class Node {
        final Kind kind;
        final Object exec;
        final List<Node> children = new ArrayList<>();
        RecordedExchange exchange;
        RowType output;
        int sourcePipeline = -1;
        int rowsPipeline = -1;
        int rowsStep;
        final List<int[]> timeSteps = new ArrayList<>();
        PlanNode plan;
        boolean topN;
        long est = -1;
        long width = 8;
        long cost;
        long cross = -1;
        Partitioning partitioning;
        String partitionLabel;
        int id;
        int depth;
        int fragment;

        Node(final Kind kind, final Object exec) {
            this.kind = kind;
            this.exec = exec;
        }

        Node counted(final int pipeline, final int step) {
            rowsPipeline = pipeline;
            rowsStep = step;
            timeSteps.add(new int[] {pipeline, step});
            return this;
        }
    }

    /** The columns a node's rows are bucketed by, the buckets, and whether they were read in place. */
    private record Partitioning(Set<String> columns, BucketFunction function, boolean colocated) {
    }

    private final String query;
    private final String strategy;
    private final Topology topology;
    private final boolean distributed;
    private final Catalog tables;
    private final PlanStats stats;
    private final PipelineCompiler.Compiled compiled;
    private final List<Pipeline> pipelines;
    private final Map<Sink<?>, Integer> pipelineOfSink = new IdentityHashMap<>();
    private final Map<Sink<?>, RecordedExchange> bySink = new IdentityHashMap<>();
    private final Map<Source, RecordedExchange> bySource = new IdentityHashMap<>();
    private final Node[] sourceNodeOf;
    private int[] parentOf;

    private ExplainBuilder(final String query, final String strategy, final Topology topology, final boolean distributed,
                           final Catalog tables, final PipelineCompiler.Compiled compiled,
                           final List<RecordedExchange> exchanges) {
        this.query = query;
        this.strategy = strategy;
        this.topology = topology;
        this.distributed = distributed;
        this.tables = tables;
        this.stats = new PlanStats(tables);
        this.compiled = compiled;
        this.pipelines = compiled.pipelines();
        for (int p = 0; p < pipelines.size(); p++) {
            pipelineOfSink.put(pipelines.get(p).sink(), p);
        }
        for (final RecordedExchange e : exchanges) {
            bySink.put(e.sink(), e);
            bySource.put(e.source(), e);
        }
        this.sourceNodeOf = new Node[pipelines.size()];
    }

    /**
     * The model of a compiled query.
     *
     * @param query       its name
     * @param strategy    the strategy asked for, as the CLI names it
     * @param topology    the CNs x cores it was compiled for
     * @param distributed whether it was compiled for a cluster runtime
     * @param tables      the tables it reads (for the zonemap estimates)
     * @param plan        the plan tree compiled
     * @param compiled    what the compiler made of it for the coordinator's CN
     * @param exchanges   the exchanges the compiler asked for, in order ({@link RecordingExchanges})
     */
    public static ExplainPlan build(final String query, final String strategy, final Topology topology,
                                    final boolean distributed, final Catalog tables, final PlanNode plan,
                                    final PipelineCompiler.Compiled compiled, final List<RecordedExchange> exchanges) {
        return new ExplainBuilder(query, strategy, topology, distributed, tables, compiled, exchanges).build(plan);
    }

    private ExplainPlan build(final PlanNode plan) {
        int result = -1;
        for (int p = 0; p < pipelines.size(); p++) {
            if (pipelines.get(p).sink() == compiled.result()) {
                result = p;
            }
        }
        if (result < 0) {
            throw new IllegalStateException("no pipeline of " + query + " ends in its result: " + pipelines);
        }
        final Node root = chain(result, pipelines.get(result).operators().size() - 1);
        match(root, plan);
        estimate(root);
        final List<Node> order = new ArrayList<>();
        number(root, 0, order);
        final List<List<Node>> fragments = new ArrayList<>();
        final List<List<Integer>> fragmentSources = new ArrayList<>();
        fragments.add(new ArrayList<>());
        fragmentSources.add(new ArrayList<>());
        cut(root, 0, fragments, fragmentSources);
        final List<ExplainOperator> operators = new ArrayList<>();
        for (final Node n : order) {
            operators.add(operator(n));
        }
        parentOf = new int[fragments.size()];
        for (int f = 0; f < fragmentSources.size(); f++) {
            for (final int child : fragmentSources.get(f)) {
                parentOf[child] = f;
            }
        }
        final List<ExplainFragment> out = new ArrayList<>();
        for (int f = 0; f < fragments.size(); f++) {
            out.add(fragment(f, fragments.get(f), fragmentSources.get(f)));
        }
        final List<Integer> steps = new ArrayList<>();
        for (final Pipeline p : pipelines) {
            steps.add(p.operators().size() + 2);
        }
        return new ExplainPlan(query, topology, strategy, distributed, compiled.decisions(), compiled.runtimeFilters(),
                operators, out, steps, false);
    }

    // ---- the tree, walked back from the result ----

    /** The node whose output is operator {@code i}'s of pipeline {@code p} (its source's for -1). */
    private Node chain(final int p, final int i) {
        if (i < 0) {
            return sourceNode(p);
        }
        final Pipeline pipeline = pipelines.get(p);
        final OperatorFactory op = pipeline.operators().get(i);
        final Kind kind = op instanceof Filter ? Kind.FILTER : op instanceof Projection ? Kind.PROJECT
                : op instanceof HashJoinProbe ? Kind.HASH_JOIN : Kind.OTHER;
        final Node n = new Node(kind, op).counted(p, i + 1);
        n.output = op.outputType();
        n.children.add(chain(p, i - 1));
        if (op instanceof HashJoinProbe probe) {
            final Integer b = pipelineOfSink.get(probe.build());
            if (b == null) {
                throw new IllegalStateException("the build of " + probe + " ends no pipeline of " + query);
            }
            final Pipeline build = pipelines.get(b);
            n.children.add(chain(b, build.operators().size() - 1));
            n.timeSteps.add(new int[] {b, build.operators().size() + 1});
        }
        return n;
    }

    private Node sourceNode(final int p) {
        final Pipeline pipeline = pipelines.get(p);
        final Source source = pipeline.source();
        final Node n;
        final RecordedExchange in = bySource.get(source);
        if (source instanceof TableScan || source instanceof ColocatedScan) {
            n = new Node(source instanceof TableScan ? Kind.SCAN : Kind.COLOCATED_SCAN, source).counted(p, 0);
            n.output = source.rowType();
        } else if (in != null) {
            n = new Node(Kind.EXCHANGE_IN, source).counted(p, 0);
            n.exchange = in;
            n.output = source.rowType();
            n.children.add(outputOf(sender(in), -1));
        } else {
            final List<Integer> unionInputs = new ArrayList<>();
            for (final Pipeline d : pipeline.dependencies()) {
                if (d.sink() instanceof ResultCollector && d.sink() != compiled.result()) {
                    unionInputs.add(pipelineOfSink.get(d.sink()));
                }
            }
            if (!unionInputs.isEmpty()) {
                n = new Node(Kind.UNION_ALL, source).counted(p, 0);
                n.output = source.rowType();
                for (final int u : unionInputs) {
                    n.children.add(chain(u, pipelines.get(u).operators().size() - 1));
                    n.timeSteps.add(new int[] {u, pipelines.get(u).operators().size() + 1});
                }
            } else if (pipeline.dependencies().isEmpty()) {
                n = new Node(Kind.OTHER, source).counted(p, 0);
                n.output = source.rowType();
            } else {
                n = outputOf(pipelineOfSink.get(pipeline.dependencies().get(0).sink()), p);
            }
        }
        n.sourcePipeline = p;
        sourceNodeOf[p] = n;
        return n;
    }

    private int sender(final RecordedExchange e) {
        final Integer p = pipelineOfSink.get(e.sink());
        if (p == null) {
            throw new IllegalStateException("exchange " + e.id() + " of " + query + " ends no pipeline");
        }
        return p;
    }

    /** The node of pipeline {@code q}'s sink, whose output pipeline {@code reader} reads (-1: none does). */
    private Node outputOf(final int q, final int reader) {
        final Pipeline pipeline = pipelines.get(q);
        final Sink<?> sink = pipeline.sink();
        final int k = pipeline.operators().size();
        final RecordedExchange out = bySink.get(sink);
        final RecordedExchange gathered = bySource.get(pipeline.source());
        final Node n;
        if (out != null) {
            n = new Node(Kind.EXCHANGE_OUT, sink).counted(q, k + 1);
            n.exchange = out;
            n.output = k == 0 ? pipeline.source().rowType() : pipeline.operators().get(k - 1).outputType();
            n.children.add(chain(q, k - 1));
            return n;
        }
        if (sink instanceof MergeSort && k == 0 && gathered != null) {
            n = new Node(Kind.MERGE_SORT_IN, sink);
            n.exchange = gathered;
            n.timeSteps.add(new int[] {q, 0});
            n.timeSteps.add(new int[] {q, 1});
            n.output = ((MergeSort) sink).output().rowType();
            n.children.add(outputOf(sender(gathered), -1));
            n.sourcePipeline = q;
            sourceNodeOf[q] = n;
        } else {
            final Kind kind = sink instanceof HashAggregate ? Kind.GROUP_BY : sink instanceof Sort ? Kind.SORT
                    : sink instanceof SortedRuns ? Kind.SORTED_RUNS : sink instanceof MergeSort ? Kind.MERGE_SORT
                    : sink instanceof Limit ? Kind.LIMIT : Kind.OTHER;
            n = new Node(kind, sink);
            n.timeSteps.add(new int[] {q, k + 1});
            n.output = sink instanceof HashAggregate a ? a.outputType()
                    : k == 0 ? pipeline.source().rowType() : pipeline.operators().get(k - 1).outputType();
            n.children.add(chain(q, k - 1));
        }
        if (reader >= 0) {
            n.rowsPipeline = reader;
            n.rowsStep = 0;
            n.timeSteps.add(new int[] {reader, 0});
        }
        return n;
    }

    // ---- plan nodes and estimates ----

    private void match(final Node x, final PlanNode n) {
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
                    final Node below = belowExchanges(x.children.get(0));
                    final boolean pairs = x.kind == Kind.MERGE_SORT || x.kind == Kind.MERGE_SORT_IN
                            || (x.kind == Kind.SORT && below.kind == Kind.SORT && o.limit() != Sort.NO_LIMIT
                            && !(o.input() instanceof PlanNode.OrderBy) && below != x.children.get(0));
                    if (pairs && below.kind == Kind.SORT) {
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

    private static Node belowExchanges(final Node n) {
        Node x = n;
        while ((x.kind == Kind.EXCHANGE_IN || x.kind == Kind.EXCHANGE_OUT) && !x.children.isEmpty()) {
            x = x.children.get(0);
        }
        return x;
    }

    private void estimate(final Node x) {
        for (final Node c : x.children) {
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
        long own;
        switch (x.kind) {
            case SCAN, COLOCATED_SCAN -> own = CostModel.scan(x.est, x.width);
            case HASH_JOIN -> own = CostModel.hashJoin(x.children.get(0).est, x.children.get(1).est);
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
        for (final Node c : x.children) {
            cost = CostModel.plus(cost, c.cost);
        }
        x.cost = cost;
    }

    private static boolean everyCn(final DispatchMode mode) {
        return mode == DispatchMode.BROADCAST || mode == DispatchMode.ALL_CN;
    }

    /** How a node's output rows are bucketed, where the plan keeps them where an earlier bucketing put them. */
    private Partitioning partitioning(final Node x) {
        switch (x.kind) {
            case COLOCATED_SCAN -> {
                final ColocatedScan scan = (ColocatedScan) x.exec;
                return new Partitioning(Set.of(scan.rowType().name(scan.keyColumn())), scan.bucketFunction(), true);
            }
            case EXCHANGE_IN -> {
                final RecordedExchange e = x.exchange;
                return e.function() != null && e.keys().size() == 1 && e.mode() == DispatchMode.TO_OWNER
                        ? new Partitioning(Set.of(e.keys().get(0)), e.function(), false) : null;
            }
            case FILTER, EXCHANGE_OUT -> {
                return x.children.get(0).partitioning;
            }
            case PROJECT -> {
                final Partitioning p = x.children.get(0).partitioning;
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
                return kept.isEmpty() ? null : new Partitioning(kept, p.function(), p.colocated());
            }
            case HASH_JOIN -> {
                final Partitioning p = x.children.get(0).partitioning;
                if (p == null || !(x.plan instanceof PlanNode.Join j)) {
                    return null;
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
                return new Partitioning(cols, p.function(), p.colocated());
            }
            case GROUP_BY -> {
                final Partitioning p = x.children.get(0).partitioning;
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
                return cols.isEmpty() ? null : new Partitioning(cols, p.function(), p.colocated());
            }
            default -> {
                return null;
            }
        }
    }

    /** The rows the plan sends from one CN to another through an exchange: 0 where none leave their CN. */
    private long crossing(final Node x) {
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
        return rows - rows / cns;
    }

    private static boolean alreadyBucketed(final Partitioning p, final RecordedExchange e) {
        return p != null && e.function() != null && e.keys().size() == 1 && p.columns().contains(e.keys().get(0))
                && sameBuckets(p.function(), e.function());
    }

    private static boolean sameBuckets(final BucketFunction a, final BucketFunction b) {
        if (a == b) {
            return true;
        }
        return a instanceof RangeBucketFunction ra && b instanceof RangeBucketFunction rb && ra.kind() == rb.kind()
                && Arrays.equals(ra.cutPoints(), rb.cutPoints());
    }

    /** HASH, RANGE, PKEY (bucketed like the other side of its join, which stays where it was read), BROADCAST or none. */
    private String partitionLabel(final Node x) {
        final RecordedExchange e = x.exchange;
        if (e.mode() == DispatchMode.GATHER) {
            return "";
        }
        if (everyCn(e.mode()) && e.function() == null) {
            return "BROADCAST";
        }
        return e.function() instanceof RangeBucketFunction ? "RANGE" : "HASH";
    }

    // ---- numbering, fragments, rows ----

    private void number(final Node x, final int depth, final List<Node> order) {
        x.id = order.size();
        x.depth = depth;
        order.add(x);
        if (x.kind == Kind.HASH_JOIN) {
            markPkey(x);
        }
        for (final Node c : x.children) {
            number(c, depth + 1, order);
        }
    }

    /** A join's build side shuffled into the buckets its probe side was read in, in place: seed 001's PKEY. */
    private static void markPkey(final Node join) {
        final Partitioning probe = join.children.get(0).partitioning;
        final Node build = join.children.get(1);
        if (probe == null || !probe.colocated() || build.kind != Kind.EXCHANGE_IN) {
            return;
        }
        final Node out = build.children.get(0);
        if (out.exchange.function() != null && sameBuckets(probe.function(), out.exchange.function())) {
            out.partitionLabel = "PKEY";
        }
    }

    private void cut(final Node x, final int fragment, final List<List<Node>> fragments,
                     final List<List<Integer>> sources) {
        x.fragment = fragment;
        fragments.get(fragment).add(x);
        for (final Node c : x.children) {
            if (c.kind == Kind.EXCHANGE_OUT) {
                final int f = fragments.size();
                fragments.add(new ArrayList<>());
                sources.add(new ArrayList<>());
                sources.get(fragment).add(f);
                cut(c, f, fragments, sources);
            } else {
                cut(c, fragment, fragments, sources);
            }
        }
    }

    private ExplainFragment fragment(final int id, final List<Node> nodes, final List<Integer> sources) {
        final Node top = nodes.get(0);
        Node spine = top;
        while (!spine.children.isEmpty() && spine.children.get(0).fragment == id) {
            spine = spine.children.get(0);
        }
        final FragmentType type = spine.sourcePipeline >= 0
                ? compiled.fragments().get(pipelines.get(spine.sourcePipeline)) : FragmentType.SOURCE;
        final String output = top.kind == Kind.EXCHANGE_OUT
                ? operatorName(top) + " " + ExplainLabels.exchange(top.exchange) + ", read by fragment " + parentOf[id]
                : "the result" + (distributed ? ", on the coordinator" : "");
        final List<Integer> ids = new ArrayList<>();
        for (final Node n : nodes) {
            ids.add(n.id);
        }
        final Set<Integer> mine = new HashSet<>();
        for (int p = 0; p < pipelines.size(); p++) {
            if (sourceNodeOf[p] != null && sourceNodeOf[p].fragment == id) {
                mine.add(p);
            }
        }
        final List<List<String>> lines = new ArrayList<>();
        for (int p = 0; p < pipelines.size(); p++) {
            if (mine.contains(p)) {
                lines.add(pipelineLines(p));
            }
        }
        return new ExplainFragment(id, type, output, ids, lines, sources);
    }

    private List<String> pipelineLines(final int p) {
        final Pipeline pipeline = pipelines.get(p);
        final List<String> lines = new ArrayList<>();
        lines.add("pipeline " + pipeline.name());
        final RecordedExchange in = bySource.get(pipeline.source());
        lines.add(in != null ? "EXCHANGE IN " + ExplainLabels.exchange(in) + " " + pipeline.source().rowType().names()
                : pipeline.source().toString());
        for (final OperatorFactory op : pipeline.operators()) {
            lines.add("-> " + op);
        }
        final RecordedExchange out = bySink.get(pipeline.sink());
        lines.add("=> " + (out != null ? "EXCHANGE OUT " + ExplainLabels.exchange(out) : pipeline.sink().toString()));
        return lines;
    }

    private ExplainOperator operator(final Node x) {
        final List<String> details = new ArrayList<>();
        String name = "";
        final PlanNode n = x.plan;
        switch (x.kind) {
            case SCAN, COLOCATED_SCAN -> {
                final TableScan scan = x.exec instanceof ColocatedScan c ? c.scan() : (TableScan) x.exec;
                final PlanNode.Scan s = n instanceof PlanNode.Scan ps ? ps : null;
                if (s != null) {
                    name = s.table();
                    details.add("filter(" + (s.filter() == null ? "nil" : s.filter()) + ")");
                    details.add("access(" + bracketed(s.columns()) + ")");
                    if (!s.pruning().isEmpty()) {
                        details.add("pruning(" + s.pruning() + ")");
                    }
                    details.add("partitions(" + blocks(s) + ")");
                }
                if (x.exec instanceof ColocatedScan c) {
                    details.add("colocated(" + c.scan().rowType().name(c.keyColumn()) + " range into "
                            + c.bucketFunction().bucketCount() + " buckets)");
                    details.add("est_cross_cn_rows(0)");
                }
                if (!scan.runtimeFilters().isEmpty()) {
                    details.add("runtime_filters(" + scan.runtimeFilters().size() + ")");
                }
            }
            case FILTER -> details.add("filter(" + (n instanceof PlanNode.Filter f ? f.predicate()
                    : ((Filter) x.exec).toString().replaceFirst("^filter ", "")) + ")");
            case PROJECT -> details.add("exprs(" + (n instanceof PlanNode.Project p ? p.items() : x.exec) + ")");
            case HASH_JOIN -> {
                if (n instanceof PlanNode.Join j) {
                    final List<String> conds = new ArrayList<>();
                    for (int k = 0; k < j.probeKeys().size(); k++) {
                        conds.add(j.probeKeys().get(k) + " = " + j.buildKeys().get(k));
                    }
                    details.add("equal_conds(" + conds + ")");
                    details.add("other_conds(" + (j.condition() == null ? "nil" : j.condition()) + ")");
                }
                details.add("build(#" + x.children.get(1).id + ")");
            }
            case GROUP_BY -> {
                if (n instanceof PlanNode.Aggregation a) {
                    details.add("group(" + bracketed(a.keys().stream().map(NamedExpr::toString).toList()) + ")");
                    details.add("agg_func(" + a.aggregates() + ")");
                }
                details.add("phase(" + ((HashAggregate) x.exec).phase() + ")");
            }
            case SORT, SORTED_RUNS, MERGE_SORT, MERGE_SORT_IN -> {
                if (n instanceof PlanNode.OrderBy o) {
                    details.add("sort_keys(" + o.keys() + ")");
                    if (o.limit() != Sort.NO_LIMIT) {
                        details.add("limit(" + o.limit() + ")");
                    }
                }
                if (x.kind == Kind.SORTED_RUNS) {
                    details.add("runs(one per core, " + topology.bucketCount() + ")");
                }
            }
            case LIMIT -> {
                if (n instanceof PlanNode.Limit l) {
                    details.add("limit(" + l.limit() + ")");
                }
            }
            default -> {
            }
        }
        ExplainOperator.Exchange exchange = null;
        if (x.exchange != null) {
            final RecordedExchange e = x.exchange;
            name = ":EX" + e.id();
            final boolean out = x.kind == Kind.EXCHANGE_OUT;
            if (out && !e.keys().isEmpty()) {
                details.add(0, "(#keys=" + e.keys().size() + ", " + bracketed(e.keys()) + ")");
            }
            details.add("dispatch(" + e.mode() + (e.function() == null ? "" : ", " + e.function().bucketCount()
                    + " buckets") + ")");
            if (out) {
                details.add("est_cross_cn_rows(" + (x.cross < 0 ? "unknown" : x.cross) + ")");
            }
            exchange = new ExplainOperator.Exchange(e.id(), e.mode().name(), e.keys(),
                    out ? (x.partitionLabel.isEmpty() ? "SINGLE" : x.partitionLabel) : "", out ? x.cross : -1, out);
        }
        final List<String> outputs = x.output == null ? List.of() : x.output.names();
        final List<Integer> children = new ArrayList<>();
        for (final Node c : x.children) {
            children.add(c.id);
        }
        final ExplainOperator.Counted counted = x.rowsPipeline < 0 ? null
                : new ExplainOperator.Counted(x.rowsPipeline, x.rowsStep, x.timeSteps);
        return new ExplainOperator(x.id, x.depth, operatorName(x), name, x.est, x.cost, x.fragment, outputs, details,
                exchange, List.of(), children, counted, null);
    }

    private static String operatorName(final Node x) {
        return switch (x.kind) {
            case SCAN -> "TABLE SCAN";
            case COLOCATED_SCAN -> "TABLE SCAN (COLOCATED)";
            case FILTER -> "FILTER";
            case PROJECT -> "PROJECT";
            case HASH_JOIN -> {
                final PlanNode.Join j = x.plan instanceof PlanNode.Join pj ? pj : null;
                yield j == null || j.type() == JoinType.INNER ? "HASH JOIN"
                        : "HASH " + j.type().name().replace('_', ' ') + " JOIN";
            }
            case GROUP_BY -> {
                final HashAggregate a = (HashAggregate) x.exec;
                final boolean scalar = x.plan instanceof PlanNode.Aggregation pa && pa.keys().isEmpty();
                yield (scalar ? "SCALAR GROUP BY" : "HASH GROUP BY")
                        + (a.phase() == AggregationPhase.SINGLE ? "" : " (" + a.phase() + ")");
            }
            case SORT -> x.plan instanceof PlanNode.OrderBy o && o.limit() != Sort.NO_LIMIT ? "TOP-N SORT" : "SORT";
            case SORTED_RUNS -> "SORT (RUNS)";
            case MERGE_SORT -> "MERGE SORT";
            case MERGE_SORT_IN -> "EXCHANGE IN MERGE SORT DISTR";
            case LIMIT -> "LIMIT";
            case UNION_ALL -> "UNION ALL";
            case EXCHANGE_IN -> "EXCHANGE IN DISTR";
            case EXCHANGE_OUT -> "EXCHANGE OUT DISTR" + (x.partitionLabel == null || x.partitionLabel.isEmpty() ? ""
                    : " (" + x.partitionLabel + ")");
            case OTHER -> String.valueOf(x.exec).toUpperCase(java.util.Locale.ROOT);
        };
    }

    private static String bracketed(final List<String> names) {
        final StringBuilder sb = new StringBuilder();
        for (final String s : names) {
            sb.append(sb.length() == 0 ? "" : ", ").append('[').append(s).append(']');
        }
        return sb.toString();
    }

    /** The blocks a scan reads after zonemap pruning, over every CN. */
    private String blocks(final PlanNode.Scan s) {
        final BlockTable t = tables.table(s.table());
        RoaringBitmap keep = RoaringBitmap.bitmapOfRange(0, t.blockCount());
        for (final Predicate p : s.pruning()) {
            keep = RoaringBitmap.and(keep, BlockPruner.prune(p, t));
        }
        return keep.getCardinality() + " of " + t.blockCount() + " blocks";
    }
}
