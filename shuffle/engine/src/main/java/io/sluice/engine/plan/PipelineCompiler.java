package io.sluice.engine.plan;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregationPhase;
import io.sluice.engine.exec.AssertOneRow;
import io.sluice.engine.exec.BuildRowMarks;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.Filter;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.HashJoinBuild;
import io.sluice.engine.exec.HashJoinProbe;
import io.sluice.engine.exec.JoinBuild;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Limit;
import io.sluice.engine.exec.MaterializedSource;
import io.sluice.engine.exec.MergeSort;
import io.sluice.engine.exec.NestedLoopJoinBuild;
import io.sluice.engine.exec.NestedLoopJoinProbe;
import io.sluice.engine.exec.OperatorFactory;
import io.sluice.engine.exec.PartitionedHashJoinBuild;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.Projection;
import io.sluice.engine.exec.QueryMemory;
import io.sluice.engine.exec.ResultCollector;
import io.sluice.engine.exec.RuntimeFilterHandle;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortedRuns;
import io.sluice.engine.exec.Source;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.exec.UnionAll;
import io.sluice.engine.exec.Window;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.ExprColumns;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.BlockCaches;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeyDispatch;
import io.sluice.shuffle.HeavyKeySet;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts a plan tree into pipelines at its pipeline breakers, as DuckDB does: an aggregation, a
 * sort or a limit ends the pipeline feeding it and starts one reading its result; a join ends its
 * build side's pipeline and puts a probe operator into the probe side's pipeline, which then
 * depends on the build. The list is in an order that runs each pipeline after its dependencies;
 * the last one collects the result. A UNION ALL ends each input's pipeline in a sink that keeps
 * its rows, and one pipeline reads all of them.
 *
 * <p>Each join and group-by is distributed over the buckets of the {@link Topology} as the
 * {@link DecidedPlan} says ({@link PhysicalPlanner} decided it; no rule runs here): a broadcast join or
 * merge group, or a shuffle, where an exchange ({@link LocalExchanges} in one process) or a {@link ColocatedScan} ends the input
 * pipeline and the next one takes one bucket per morsel: a shuffle join builds one table per
 * bucket and probes each bucket against its own; a shuffle group aggregates each bucket completely.
 *
 * <p>In a cluster ({@link ExchangeFactory#distributed()}) every CN compiles the same decided plan for its
 * own index and runs its pipelines: scans read the CN's share of the blocks (SOURCE), shuffles
 * dispatch to the CN owning each bucket (HASH or RANGE), broadcast build sides reach every CN
 * (BROADCAST), and merge groups, sorts and the result are finished at the coordinator (SINGLE,
 * CN {@link #COORDINATOR}) after a gather; a merge group first aggregates partially on each CN, a
 * sort ({@link DetermineSortDistribution}) sorts each core's rows into a run that the coordinator
 * merges.
 * Pipelines of a SINGLE fragment run on every CN with no input except on the coordinator, so
 * that every CN ends every exchange it sends to. A pipeline ends in an exchange only where the plan
 * placed one ({@link DecidedExchange}): it is taken by its edge, and its id is the plan's on every CN.
 */
public final class PipelineCompiler {
    /** The CN whose bucket 0 receives gathers and which runs the SINGLE fragments. */
    public static final int COORDINATOR = 0;

    private final Catalog tables;
    private final StrategyConfig config;
    private final Topology topology;
    private final int cn;
    private final ExchangeFactory exchanges;
    private DecidedPlan decided;
    private final List<Pipeline> pipelines = new ArrayList<>();
    /** The group-bys compiled so far, by plan (equal plans, equal groups), as their output pipelines start. */
    private final Map<PlanNode.Aggregation, Open> grouped = new HashMap<>();
    private final Map<Pipeline, FragmentType> fragments = new LinkedHashMap<>();
    private final List<Decision> decisions = new ArrayList<>();
    /** The input rows of each group-by aggregated partially before its shuffle. */
    private final Map<PlanNode.Aggregation, RowType> partialInputs = new IdentityHashMap<>();
    private RuntimeFilterRouter router;
    private RuntimeFilterWiring filters;
    private QueryMemory memory = QueryMemory.unbounded();
    private BlockCaches caches = BlockCaches.NONE;
    private int nextId;
    /** Per node, how often each of its input edges (the result's too) has taken its exchange so far. */
    private final Map<PlanNode, int[]> edgesTaken = new IdentityHashMap<>();
    /** The ids of the decided exchanges compiled so far. */
    private final Set<Integer> used = new HashSet<>();

    /** A compiler for one core with broadcast joins and merge groups. */
    public PipelineCompiler(final Catalog tables) {
        this(tables, StrategyConfig.defaults().withStrategy(Strategy.BROADCAST), 1);
    }

    /**
     * A compiler for one process.
     *
     * @param tables opens a stored table by name
     * @param config the strategy and the thresholds joins and group-bys are distributed by
     * @param cores  worker threads: shuffles have one bucket per core
     */
    public PipelineCompiler(final Catalog tables, final StrategyConfig config, final int cores) {
        this(tables, config, new Topology(1, cores), COORDINATOR, new LocalExchanges(config.shuffle()));
    }

    /**
     * A compiler for CN {@code cn} of a cluster.
     *
     * @param topology  the cluster's CNs x cores: shuffles have one bucket per core of every CN
     * @param exchanges the exchanges of this CN
     */
    public PipelineCompiler(final Catalog tables, final StrategyConfig config, final Topology topology,
                            final int cn, final ExchangeFactory exchanges) {
        if (cn < 0 || cn >= topology.cnCount()) {
            throw new IllegalArgumentException("CN " + cn + " is not in topology " + topology);
        }
        this.tables = tables;
        this.config = config;
        this.topology = topology;
        this.cn = cn;
        this.exchanges = exchanges;
        this.router = exchanges.runtimeFilterRouter();
    }

    /**
     * Accounts the rows the query's operators keep (hash join builds, group tables, sorts, windows) in
     * {@code m}, which fails the query when its budget is spent; without it nothing is accounted.
     */
    public PipelineCompiler memory(final QueryMemory m) {
        this.memory = m;
        return this;
    }

    /**
     * Places the blocks of scans that no colocation pins on the CNs whose block caches hold them
     * ({@link io.sluice.shuffle.CachedBlockPlacement}); every CN of the query must be given the same caches.
     */
    public PipelineCompiler blockCaches(final BlockCaches c) {
        this.caches = c;
        return this;
    }

    /**
     * Sends the partial runtime filters of join builds through {@code r} instead of the exchanges'
     * router (a test that delays or drops filters on their way).
     */
    public PipelineCompiler routeRuntimeFilters(final RuntimeFilterRouter r) {
        this.router = r;
        return this;
    }

    /**
     * The compiled query on this CN: its pipelines in run order, the fragment type of each, the sink
     * holding the result (complete on the coordinator), each join's and group-by's strategy, its
     * runtime filters as planned and as they run here, and the local exchange in front of each operator
     * input ({@link DetermineLocalExchanges}).
     */
    public record Compiled(List<Pipeline> pipelines, Map<Pipeline, FragmentType> fragments, ResultCollector result,
                           List<Decision> decisions, List<RuntimeFilterPlan> runtimeFilters,
                           List<RuntimeFilterHandle> runtimeFilterHandles, List<LocalExchange> localExchanges) {
        public Compiled {
            runtimeFilters = List.copyOf(runtimeFilters);
            runtimeFilterHandles = List.copyOf(runtimeFilterHandles);
            localExchanges = List.copyOf(localExchanges);
        }

        /** What each runtime filter did on this CN. */
        public List<RuntimeFilterStats> runtimeFilterStats() {
            final List<RuntimeFilterStats> out = new ArrayList<>();
            for (final RuntimeFilterHandle h : runtimeFilterHandles) {
                out.add(h.stats());
            }
            return out;
        }
    }

    /**
     * Cuts a decided plan into this CN's pipelines, reading each operator's distribution from the plan: no
     * planning rule runs here.
     *
     * @throws IllegalArgumentException when the plan was decided for another topology or mode than this compiler's
     */
    public Compiled compile(final DecidedPlan plan) {
        if (!plan.topology().equals(topology) || plan.distributed() != exchanges.distributed()) {
            throw new IllegalArgumentException("the plan was decided for " + plan.topology()
                    + (plan.distributed() ? " on a cluster" : " in one process") + " but is compiled for " + topology
                    + (exchanges.distributed() ? " on a cluster" : " in one process")
                    + ": decide it with PhysicalPlanner.plan for the topology it runs on");
        }
        this.decided = plan;
        edgesTaken.clear();
        used.clear();
        this.filters = new RuntimeFilterWiring(plan.runtimeFilters(), config, topology, cn, router);
        final List<LocalExchange> local = plan.localExchanges();
        final PlanNode decidedRoot = plan.root();
        Open root = open(decidedRoot);
        if (exchanges.distributed() && !root.single) {
            root = gathered(root, decidedRoot, DecidedExchange.RESULT, "result");
        }
        final ResultCollector result = new ResultCollector(root.rowType);
        close(root, result, "result");
        if (exchanges.distributed() && used.size() != plan.exchanges().size()) {
            for (final DecidedExchange e : plan.exchanges()) {
                if (!used.contains(e.id())) {
                    throw new IllegalStateException("the plan decided " + e + ", but no pipeline of it ends there: a"
                            + " plan whose exchanges do not fit its tree is not run; decide it with PhysicalPlanner.plan");
                }
            }
        }
        final RuntimeFilterWiring.Wired wired = filters.attach(pipelines);
        return new Compiled(List.copyOf(pipelines), Map.copyOf(fragments), result, List.copyOf(decisions),
                wired.planned(), wired.handles(), local);
    }

    /** A pipeline being built: its source, operators so far, their output columns, its dependencies. */
    private static final class Open {
        final Source source;
        final List<OperatorFactory> operators = new ArrayList<>();
        final List<Pipeline> dependencies = new ArrayList<>();
        /** Pipelines feeding this one through a streaming exchange: they run alongside it. */
        final List<Pipeline> streamedFrom = new ArrayList<>();
        final FragmentType type;
        /** Whether the rows are all on the coordinator (a SINGLE fragment). */
        final boolean single;
        RowType rowType;
        /** The shuffle this pipeline's morsels are buckets of; null: none. */
        Partitioning partitioning;

        Open(final Source source, final Pipeline dependency, final FragmentType type) {
            this.source = source;
            this.rowType = source.rowType();
            this.type = type;
            this.single = type == FragmentType.SINGLE;
            if (dependency != null) {
                dependencies.add(dependency);
            }
        }

        void add(final OperatorFactory op) {
            operators.add(op);
            rowType = op.outputType();
        }
    }

    private Pipeline close(final Open open, final Sink<?> sink, final String what) {
        // A SINGLE fragment holds its rows on the coordinator only: elsewhere it runs empty, so that
        // its sink still finishes (an exchange still sends end-of-stream) but adds no rows.
        final Source source = open.single && cn != COORDINATOR
                ? new MaterializedSource(open.source.rowType(), List::of, false) : open.source;
        final Pipeline p = new Pipeline((nextId++) + " " + what, source, open.operators, sink, open.dependencies,
                open.streamedFrom);
        pipelines.add(p);
        fragments.put(p, open.type);
        return p;
    }

    /**
     * The exchange the plan decided on input {@code input} of {@code node} (or on the result), which must be of
     * this mode and fragment type: a plan that lacks it or decided another one was not decided for this tree.
     */
    private DecidedExchange decidedExchange(final PlanNode node, final int input, final DispatchMode mode,
                                            final FragmentType type) {
        final int[] taken = edgesTaken.computeIfAbsent(node, n -> new int[PlanWalk.inputs(n).size() + 1]);
        final String edge = input == DecidedExchange.RESULT ? "the result"
                : "input " + input + " of a " + node.getClass().getSimpleName() + " node";
        final DecidedExchange e = decided.exchangeAt(node, input, taken[input + 1]++);
        if (e == null) {
            throw new IllegalStateException("the plan decided no exchange into " + edge + ", where its rows need a "
                    + mode + ": a plan whose exchanges do not fit its tree is not run; decide it with"
                    + " PhysicalPlanner.plan");
        }
        if (e.mode() != mode || e.fragment() != type) {
            throw new IllegalStateException("the plan decided " + e + " with fragment " + e.fragment() + ", where its"
                    + " decisions need a " + mode + " into a " + type + " fragment: a plan whose exchanges do not fit"
                    + " its tree is not run; decide it with PhysicalPlanner.plan");
        }
        used.add(e.id());
        return e;
    }

    /**
     * The open pipeline's rows, moved by the exchange the plan decided on input {@code input} of {@code node};
     * the returned pipeline reads what this CN receives.
     */
    private Open exchanged(final Open in, final PlanNode node, final int input, final DispatchMode mode,
                           final FragmentType type, final String what) {
        return exchanged(in, decidedExchange(node, input, mode, type), null, null, what);
    }

    private Open exchanged(final Open in, final DecidedExchange exchange, final int[] keyColumns,
                           final BucketFunction function, final String what) {
        final FragmentType type = exchange.fragment();
        final ExchangeFactory.Ends ends = exchanges.exchange(exchange, in.rowType, keyColumns, function);
        final Pipeline sender = close(in, ends.sink(), what);
        if (!ends.streams()) {
            return new Open(ends.source(), sender, type);
        }
        final Open received = new Open(ends.source(), null, type);
        received.streamedFrom.add(sender);
        return received;
    }

    /** The open pipeline's rows, all on the coordinator (gathered into input {@code input} of {@code node}). */
    private Open gathered(final Open in, final PlanNode node, final int input, final String what) {
        return in.single ? in : exchanged(in, node, input, DispatchMode.GATHER, FragmentType.SINGLE,
                "gather for " + what);
    }

    /** Ends a pipeline in a sink whose output another pipeline reads, keeping where the rows are. */
    private Open breaker(final Open in, final Sink<?> sink, final Source output, final String what) {
        return new Open(output, close(in, sink, what), in.single ? FragmentType.SINGLE : FragmentType.SOURCE);
    }

    /**
     * An ORDER BY as {@link DetermineSortDistribution} decided: sorted where the rows are when they are
     * all in one place; else a merge sort (each core's sorted run, gathered run by run and merged on
     * the coordinator) or a gather and a full sort on the coordinator.
     */
    private Open orderBy(final PlanNode.OrderBy o, final Open input) {
        Open in = input;
        if (in.single || o.distribution() == SortDistribution.LOCAL_SORT) {
            final Sort sink = new Sort(in.rowType, o.keys(), o.limit()).memory(memory.operator("sort " + o.keys()));
            return breaker(in, sink, sink.output(), "sort");
        }
        if (o.distribution() == SortDistribution.MERGE_SORT) {
            final SortedRuns runs = new SortedRuns(in.rowType, o.keys(), o.limit(), cn * topology.coresPerCn(),
                    topology.coresPerCn());
            final Open sorted = breaker(in, runs, runs.output(), "sorted runs");
            final Open gathered = exchanged(sorted, o, 0, DispatchMode.GATHER, FragmentType.SINGLE,
                    "EXCHANGE OUT DISTR of sorted runs");
            final MergeSort merge = new MergeSort(gathered.rowType, o.keys(), o.limit());
            return breaker(gathered, merge, merge.output(), "EXCHANGE IN MERGE SORT DISTR");
        }
        if (o.limit() != Sort.NO_LIMIT) {
            // Top-N on each CN first: at most limit rows per CN reach the coordinator.
            final Sort local = new Sort(in.rowType, o.keys(), o.limit()).memory(memory.operator("top-n " + o.keys()));
            in = breaker(in, local, local.output(), "top-n");
        }
        in = gathered(in, o, 0, "sort");
        final Sort sink = new Sort(in.rowType, o.keys(), o.limit()).memory(memory.operator("sort " + o.keys()));
        return breaker(in, sink, sink.output(), "sort");
    }

    /**
     * A group-by; the same group-by met again in one process (a WITH query read twice, as Q15's revenue
     * is) reads the groups of the first once more instead of grouping its input anew, unless a runtime filter
     * thins the first one's input (TPC-DS Q2 reads one WITH aggregation for two years). On a cluster each
     * is grouped where its rows are: its pipelines end in exchanges of their own.
     */
    private Open aggregate(final PlanNode.Aggregation a) {
        final Open done = exchanges.distributed() ? null : grouped.get(a);
        if (done != null) {
            final Open again = new Open(done.source, done.dependencies.get(0), done.type);
            again.partitioning = done.partitioning;
            return again;
        }
        final Open out = groupBy(a);
        // Groups whose input a runtime filter thinned hold only the rows the filtering join wants: not shared.
        if (!exchanges.distributed() && out.operators.isEmpty() && out.dependencies.size() == 1
                && !filters.filtersWithin(a)) {
            final Open first = new Open(out.source, out.dependencies.get(0), out.type);
            first.partitioning = out.partitioning;
            grouped.put(a, first);
        }
        return out;
    }

    private Open groupBy(final PlanNode.Aggregation a) {
        final LocalShuffle how = decided.decisionOf(a);
        final Open in;
        switch (how.choice()) {
            case MERGE -> {
                decisions.add(new Decision("group by " + names(a.keys()), how.choice(), how.reason()));
                return mergeGroup(a, openReading(a.input(), columnsRead(a)));
            }
            case REUSE_SHUFFLE -> in = openReading(a.input(), columnsRead(a));
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
                in = how.perKey() ? partiallyAggregated(a, keys, how)
                        : bucketed(a.input(), keys, how, DispatchMode.TO_OWNER, a, 0);
            }
        }
        decisions.add(new Decision("group by " + names(a.keys()), how.choice(), how.reason()));
        if (in.partitioning == null) {
            throw new IllegalStateException("group by " + names(a.keys()) + " was planned as " + how.choice()
                    + " but its input is not bucketed");
        }
        final HashAggregate sink = how.perKey()
                ? new HashAggregate(inputType(a), a.keys(), a.aggregates(), true,
                        AggregationPhase.FINAL).memory(memory.operator("final group by " + names(a.keys())))
                : new HashAggregate(in.rowType, a.keys(), a.aggregates(), true)
                .memory(memory.operator("group by " + names(a.keys())));
        // One morsel per bucket, tagged with it: the groups stay bucketed for the operators above.
        final Open out = new Open(sink.output(), close(in, sink, "shuffle group"), in.type);
        out.partitioning = decided.delivered(a);
        return out;
    }

    /**
     * A shuffled group-by with heavy keys ({@link DetermineHeavyKeys#decideGroup}): its rows aggregated partially
     * where they are, then the partial states shuffled by the group keys as they are named in the states, so
     * that a heavy key sends one state per CN to its owner bucket.
     */
    private Open partiallyAggregated(final PlanNode.Aggregation a, final List<String> inputKeys,
                                     final LocalShuffle how) {
        final Open input = openReading(a.input(), columnsRead(a));
        partialInputs.put(a, input.rowType);
        final HashAggregate partial = new HashAggregate(input.rowType, a.keys(), a.aggregates(), false,
                AggregationPhase.PARTIAL).memory(memory.operator("partial group by " + names(a.keys())));
        final Open states = breaker(input, partial, partial.output(), "partial group");
        // State columns are named <aggregate>$<part>, which batches on the wire cannot carry: they cross the
        // exchange under plain names and get theirs back after it.
        final RowType stateType = states.rowType;
        final Set<String> taken = new HashSet<>();
        for (int c = 0; c < stateType.size(); c++) {
            taken.add(stateType.name(c));
        }
        final List<NamedExpr> plain = new ArrayList<>();
        final List<NamedExpr> restored = new ArrayList<>();
        for (int c = 0; c < stateType.size(); c++) {
            final String name = stateType.name(c);
            if (c < a.keys().size()) {
                plain.add(new NamedExpr(name, Expr.col(name)));
                restored.add(new NamedExpr(name, Expr.col(name)));
                continue;
            }
            String wire = "partial_state_" + c;
            while (taken.contains(wire)) {
                wire = "_" + wire;
            }
            plain.add(new NamedExpr(wire, Expr.col(name)));
            restored.add(new NamedExpr(name, Expr.col(wire)));
        }
        states.add(new Projection(stateType, plain));
        final List<String> keys = new ArrayList<>();
        for (final String column : inputKeys) {
            for (final NamedExpr k : a.keys()) {
                if (k.expr() instanceof ColumnRef r && r.name().equals(column)) {
                    keys.add(k.name());
                    break;
                }
            }
        }
        final Open shuffled = shuffled(states, a, 0, keys, how, DispatchMode.TO_OWNER, null);
        shuffled.add(new Projection(shuffled.rowType, restored));
        shuffled.partitioning = how.boundaries() != null ? Partitioning.range(Set.of(keys.get(0)), how.boundaries())
                : Partitioning.hash(keys);
        return shuffled;
    }

    /** The rows a partially aggregated group-by consumed, which its final phase is made for. */
    private RowType inputType(final PlanNode.Aggregation a) {
        return partialInputs.get(a);
    }

    /**
     * A merge group: one process merges its cores' tables; a cluster aggregates partially on each CN,
     * gathers the partial states and merges them on the coordinator (or, for aggregates whose state
     * cannot be split, such as COUNT DISTINCT, gathers the rows).
     */
    private Open mergeGroup(final PlanNode.Aggregation a, final Open in) {
        if (!exchanges.distributed() || in.single || !HashAggregate.splittable(a.aggregates())) {
            final Open rows = exchanges.distributed() ? gathered(in, a, 0, "merge group") : in;
            final HashAggregate sink = new HashAggregate(rows.rowType, a.keys(), a.aggregates())
                    .memory(memory.operator("group by " + names(a.keys())));
            return breaker(rows, sink, sink.output(), "merge group");
        }
        final HashAggregate partial = new HashAggregate(in.rowType, a.keys(), a.aggregates(), false,
                AggregationPhase.PARTIAL).memory(memory.operator("partial group by " + names(a.keys())));
        final Open states = gathered(breaker(in, partial, partial.output(), "partial group"), a, 0, "final group");
        final HashAggregate merged = new HashAggregate(in.rowType, a.keys(), a.aggregates(), false,
                AggregationPhase.FINAL).memory(memory.operator("final group by " + names(a.keys())));
        return breaker(states, merged, merged.output(), "final group");
    }

    /**
     * A node's pipelines, the operator above reading only the columns {@code read}: a join among them
     * joins only those, a scan leaves the others (its row filter's) unmaterialized.
     */
    private Open openReading(final PlanNode node, final Set<String> read) {
        if (node instanceof PlanNode.Join j) {
            return join(j, read);
        }
        final Open open = open(node);
        if (node instanceof PlanNode.Scan s && open.source instanceof TableScan scan) {
            scan.dropAbove(unread(s, read));
        }
        return open;
    }

    /** The columns of a scan that the operator above does not read (only its row filter does). */
    private static Set<String> unread(final PlanNode.Scan s, final Set<String> read) {
        final Set<String> unread = new HashSet<>(s.columns());
        unread.removeAll(read);
        return unread;
    }

    /** The names of the input columns a projection's expressions read. */
    private static Set<String> columnsRead(final PlanNode.Project p) {
        final Set<String> names = new HashSet<>();
        for (final NamedExpr item : p.items()) {
            ExprColumns.collect(item.expr(), names);
        }
        return names;
    }

    /** The names of the input columns a group-by's keys and aggregates read. */
    private static Set<String> columnsRead(final PlanNode.Aggregation a) {
        final Set<String> names = new HashSet<>();
        for (final NamedExpr key : a.keys()) {
            ExprColumns.collect(key.expr(), names);
        }
        for (final Aggregate aggregate : a.aggregates()) {
            ExprColumns.collect(aggregate.argument(), names);
        }
        return names;
    }

    /** @param read the joined columns the operators above read, or null for all */
    private Open join(final PlanNode.Join j, final Set<String> read) {
        final LocalShuffle how = decided.decisionOf(j);
        decisions.add(new Decision("join " + j.probeKeys() + " = " + j.buildKeys(), how.choice(), how.reason()));
        final boolean buildRows = j.condition() != null || !j.type().probeColumnsOnly();
        if (how.choice() == Distribution.BROADCAST) {
            // A runtime filter for a scan below a group-by of the probe side needs the build finished before that
            // scan's pipeline starts: build first (broadcast, which also serves a probe on the coordinator alone).
            final boolean buildFirst = filters.belowAggregation(j);
            Open probe = buildFirst ? null : open(j.probe());
            Open buildSide = open(j.build());
            if (exchanges.distributed()) {
                buildSide = probe != null && probe.single ? gathered(buildSide, j, 1, "join build")
                        : exchanged(buildSide, j, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, "broadcast");
            }
            final HashJoinBuild build = new HashJoinBuild(buildSide.rowType, j.buildKeys(), buildRows)
                    .memory(memory.operator("hash join build " + j.buildKeys()));
            final Pipeline buildPipeline = close(buildSide, build, "join build");
            filters.noteBuild(j, build, buildSide.rowType, buildPipeline);
            if (probe == null) {
                probe = open(j.probe());
            }
            probe.dependencies.add(buildPipeline);
            if (j.type().buildColumnsOnly()) {
                return marked(j, probe, build);
            }
            probe.add(new HashJoinProbe(probe.rowType, j.probeKeys(), build, j.type(), j.condition(), read));
            return probe;
        }
        final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
        final List<String> probeKeys = new ArrayList<>();
        final List<String> buildKeys = new ArrayList<>();
        for (int k = 0; k < used; k++) {
            probeKeys.add(DeliveredPartitioning.name(j.probeKeys().get(k)));
            buildKeys.add(DeliveredPartitioning.name(j.buildKeys().get(k)));
        }
        final boolean hybrid = how.choice() == Distribution.HYBRID;
        final Open buildSide = how.kept().build() ? partitioned(j.build(), buildKeys, how)
                : bucketed(j.build(), buildKeys, how, hybrid ? DispatchMode.ALL_CN : DispatchMode.TO_OWNER, j, 1,
                        perKey(how, HeavyKeyDispatch.REPLICATE, j.type(), buildKeys.size()));
        final PartitionedHashJoinBuild build = new PartitionedHashJoinBuild(buildSide.rowType, j.buildKeys(),
                topology.coresPerCn(), buildRows).memory(memory.operator("hash join build " + j.buildKeys()));
        final Pipeline buildPipeline = close(buildSide, build, "partitioned join build");
        filters.noteBuild(j, build, buildSide.rowType, buildPipeline);
        final Open probe = how.kept().probe() ? partitioned(j.probe(), probeKeys, how)
                : bucketed(j.probe(), probeKeys, how, hybrid ? DispatchMode.LOCAL_ONLY : DispatchMode.TO_OWNER, j, 0,
                        perKey(how, HeavyKeyDispatch.LOCAL_FIRST, j.type(), probeKeys.size()));
        probe.dependencies.add(buildPipeline);
        if (j.type().buildColumnsOnly()) {
            final Open out = marked(j, probe, build);
            out.partitioning = decided.delivered(j);
            return out;
        }
        probe.add(new HashJoinProbe(probe.rowType, j.probeKeys(), build, j.type(), j.condition(), read));
        probe.partitioning = decided.delivered(j);
        return probe;
    }

    /**
     * A right semi or anti join: the probe pipeline ends in marking the build rows it matches, and
     * the build rows marked (or not) start the pipeline of the operators above, once it finished.
     */
    private Open marked(final PlanNode.Join j, final Open probe, final JoinBuild build) {
        final BuildRowMarks marks = new BuildRowMarks(probe.rowType, j.probeKeys(), build, j.type(), j.condition());
        final String what = j.type().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " join probe";
        return new Open(marks.output(), close(probe, marks, what), probe.type);
    }

    /**
     * A scan's pipeline, which waits for the builds of the runtime filters it applies below a group-by
     * (compiled before it): otherwise nothing orders that scan after the build the join above depends on.
     */
    private Open scanned(final PlanNode.Scan s, final Source source) {
        final Open open = new Open(source, null, FragmentType.SOURCE);
        open.dependencies.addAll(filters.buildsBefore(s));
        return open;
    }

    /**
     * A UNION ALL: each input's pipeline ends in one of the union's sinks, and one pipeline reads the
     * rows of all of them once every input finished. The rows stay on the CNs where they are (all on
     * the coordinator only when every input's are); the output is bucketed by nothing. Numeric columns
     * of different types are widened to the widest ({@link UnionTypes}).
     */
    private Open unionAll(final PlanNode.UnionAll u) {
        final List<Open> inputs = new ArrayList<>();
        final List<RowType> types = new ArrayList<>();
        boolean single = true;
        for (final PlanNode node : u.inputs()) {
            inputs.add(open(node));
            types.add(inputs.get(inputs.size() - 1).rowType);
        }
        final List<DataType> widest = UnionTypes.widest(types);
        types.clear();
        for (final Open in : inputs) {
            final List<NamedExpr> widening = UnionTypes.widening(in.rowType, widest);
            if (widening != null) {
                in.add(new Projection(in.rowType, widening));
            }
            types.add(in.rowType);
            single &= in.single;
        }
        final UnionAll union = new UnionAll(types);
        final Open out = new Open(union.output(), null, single ? FragmentType.SINGLE : FragmentType.SOURCE);
        for (int i = 0; i < inputs.size(); i++) {
            out.dependencies.add(close(inputs.get(i), union.input(i), "union all input " + i));
        }
        return out;
    }

    /**
     * Window functions, as {@link DeterminePartitionDistribution} decided: each partition whole in one
     * sink, by a hash shuffle on the partition keys (or the shuffle the input already went through),
     * or, without PARTITION BY, gathered to the coordinator. The output stays where it was computed.
     */
    private Open window(final PlanNode.Window w) {
        final String what = "window partition by " + w.partitionBy() + " order by " + w.orderBy();
        final LocalShuffle how = decided.decisionOf(w);
        final Open in = keyed(w, w.input(), w.partitionBy(), how, what);
        final Window sink = new Window(in.rowType, w.partitionBy(), w.orderBy(), w.functions(),
                how.choice() != Distribution.GATHER).memory(memory.operator("window"));
        return breaker(in, sink, sink.output(), "window");
    }

    /**
     * The assertion that a scalar subquery gave at most one row (per key), as
     * {@link DeterminePartitionDistribution} decided: without keys on the coordinator after a gather,
     * with keys in each bucket of a hash shuffle on them.
     */
    private Open assertOneRow(final PlanNode.AssertOneRow a) {
        final String what = "assert one row" + (a.keys().isEmpty() ? "" : " per " + a.keys());
        final LocalShuffle how = decided.decisionOf(a);
        final Open in = keyed(a, a.input(), a.keys(), how, what);
        final AssertOneRow sink = new AssertOneRow(in.rowType, a.keys(), a.where(),
                how.choice() != Distribution.GATHER);
        return breaker(in, sink, sink.output(), "assert one row");
    }

    /** A node's rows with all rows of equal keys in one morsel's worker, as decided; records the decision. */
    private Open keyed(final PlanNode consumer, final PlanNode node, final List<String> keys, final LocalShuffle how,
                       final String what) {
        decisions.add(new Decision(what, how.choice(), how.reason()));
        final Open in = switch (how.choice()) {
            case GATHER -> exchanges.distributed() ? gathered(open(node), consumer, 0, what) : open(node);
            case REUSE_SHUFFLE -> open(node);
            default -> bucketed(node, keys, how, DispatchMode.TO_OWNER, consumer, 0);
        };
        if (how.choice() != Distribution.GATHER && in.partitioning == null) {
            throw new IllegalStateException(what + " was planned as " + how.choice() + " but its input is not bucketed");
        }
        return in;
    }

    /**
     * A nested-loop join as {@link DetermineNestedLoopDistribution} decided (seed 000: build BROADCAST,
     * probe ADAPTIVE_PASSTHROUGH): the build side is materialized once per CN (broadcast to every CN, or
     * gathered to the coordinator when the probe rows are all there) and shared read-only by the workers;
     * the probe rows stream through where they are, or, all on the coordinator, are first spread
     * round-robin over every CN. Without keys there is nothing to shuffle by, so every strategy decides alike.
     */
    private Open nestedLoopJoin(final PlanNode.NestedLoopJoin j) {
        final LocalShuffle how = decided.decisionOf(j);
        final String what = j.type().name().toLowerCase(java.util.Locale.ROOT) + " nested loop join on " + j.condition();
        decisions.add(new Decision(what, how.choice(), how.reason()));
        Open probe = open(j.probe());
        if (exchanges.distributed() && probe.single != (how.choice() != Distribution.BROADCAST)) {
            throw new IllegalStateException(what + " was planned as " + how.choice() + " but its probe rows are "
                    + (probe.single ? "" : "not ") + "all on the coordinator");
        }
        if (exchanges.distributed() && how.choice() == Distribution.ROUND_ROBIN) {
            probe = exchanged(probe, j, 0, DispatchMode.ANY, FragmentType.ROUND_ROBIN, "round robin");
        }
        Open buildSide = open(j.build());
        if (exchanges.distributed()) {
            buildSide = probe.single ? gathered(buildSide, j, 1, "nested loop join build")
                    : exchanged(buildSide, j, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, "broadcast");
        }
        final NestedLoopJoinBuild build = new NestedLoopJoinBuild(buildSide.rowType)
                .memory(memory.operator("nested-loop join build"));
        final Pipeline buildPipeline = close(buildSide, build, "nested loop join build");
        probe.add(new NestedLoopJoinProbe(probe.rowType, build, j.type(), j.condition()));
        probe.dependencies.add(buildPipeline);
        // Its output batches are new: they carry no bucket of the probe side's.
        probe.partitioning = null;
        return probe;
    }

    /**
     * A join side that keeps the partitioning it delivers ({@link Distribution#PKEY} or a join's
     * {@link Distribution#REUSE_SHUFFLE}): its pipeline goes on, its morsels already the join's buckets.
     */
    private Open partitioned(final PlanNode node, final List<String> keys, final LocalShuffle how) {
        final Open in = open(node);
        if (in.partitioning == null || !in.partitioning.rangeOn(keys.get(0))) {
            throw new IllegalStateException("join side " + node.getClass().getSimpleName() + " was planned as "
                    + how.choice() + " keeping its partitioning on " + keys.get(0) + ", but its pipeline delivers "
                    + in.partitioning);
        }
        return in;
    }

    /**
     * A pipeline whose morsels are this CN's buckets of a shuffle of a node's rows by the key
     * columns: a colocated scan when the node is a scan (or renames one's columns, {@link RenamedScan})
     * and the shuffle a colocated range, else the
     * node's pipeline ended by an exchange in {@code mode}.
     */
    /** How one side of a join dispatches its heavy keys: the set, the side, and whether null keys are dropped. */
    private record PerKey(HeavyKeySet keys, HeavyKeyDispatch dispatch, boolean dropNullKeys) {
        /** Whether some key's rows leave their owner bucket; dropping rows of null keys moves none. */
        boolean movesKeys() {
            return keys.size() > 0 || !dropNullKeys;
        }
    }

    /**
     * How one side of a shuffle join dispatches keys apart: its heavy keys when the decision has some; else, on a
     * range or a one-key hash shuffle, its null keys dropped where they match nothing and nothing emits them (the
     * probe side of an inner or semi join, the build side of an inner, left, semi or anti join), so that a column
     * full of nulls does not fill bucket 0; else null.
     */
    private static PerKey perKey(final LocalShuffle how, final HeavyKeyDispatch dispatch, final JoinType type,
                                 final int keyCount) {
        if (how.perKey()) {
            return perKey(how, dispatch, type);
        }
        if (keyCount != 1 || how.choice() != Distribution.SHUFFLE_RANGE && how.choice() != Distribution.SHUFFLE_HASH) {
            return null;
        }
        final boolean drop = dispatch == HeavyKeyDispatch.REPLICATE
                ? type == JoinType.INNER || type == JoinType.LEFT || type == JoinType.SEMI || type == JoinType.ANTI
                : type == JoinType.INNER || type == JoinType.SEMI;
        return drop ? new PerKey(HeavyKeySet.none(), dispatch, true) : null;
    }

    private static PerKey perKey(final LocalShuffle how, final HeavyKeyDispatch dispatch, final JoinType type) {
        final long[] keys = new long[how.heavyKeys().size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = how.heavyKeys().get(i).key();
        }
        // A null probe key matches nothing: an inner or semi join drops its row before it moves; a left or
        // anti join emits it, from the CN that read it.
        return new PerKey(HeavyKeySet.of(keys), dispatch, type == JoinType.INNER || type == JoinType.SEMI);
    }

    private Open bucketed(final PlanNode node, final List<String> keys, final LocalShuffle how, final DispatchMode mode,
                          final PlanNode consumer, final int input) {
        return bucketed(node, keys, how, mode, consumer, input, null);
    }

    /**
     * @param consumer the node whose input {@code input} the rows are bucketed for: the plan's exchange on that edge
     *                 shuffles them, unless a colocated scan reads them bucketed
     * @param perKey   how heavy keys are dispatched apart, or null when every key goes to its owner
     */
    private Open bucketed(final PlanNode node, final List<String> keys, final LocalShuffle how, final DispatchMode mode,
                          final PlanNode consumer, final int input, final PerKey perKey) {
        final Open bucketed;
        final boolean range = how.boundaries() != null;
        final RenamedScan renamed = RenamedScan.of(node);
        if ((how.choice() == Distribution.COLOCATE || how.colocatedScan()) && renamed != null
                && renamed.scanColumn(keys.get(0)) != null) {
            final PlanNode.Scan s = renamed.scan();
            final TableScan scan = filters.noteScan(s, new TableScan(tables.table(s.table()), s.columns(), s.pruning(),
                    s.filter()));
            bucketed = new Open(new ColocatedScan(scan, scan.rowType().indexOf(renamed.scanColumn(keys.get(0))),
                    how.boundaries(), topology.firstBucketOf(cn), topology.coresPerCn()), null, FragmentType.RANGE);
            if (renamed.rename() != null) {
                scan.dropAbove(unread(s, columnsRead(renamed.rename())));
                bucketed.add(new Projection(bucketed.rowType, renamed.rename().items()));
            }
        } else {
            bucketed = shuffled(open(node), consumer, input, keys, how, mode, perKey);
        }
        bucketed.partitioning = perKey != null && perKey.movesKeys() ? null : range ? Partitioning.range(Set.of(keys.get(0)), how.boundaries())
                : Partitioning.hash(keys);
        return bucketed;
    }

    /**
     * The open pipeline's rows shuffled by the exchange the plan decided into input {@code input} of
     * {@code consumer}, on its keys and boundaries (per key, when {@code perKey} says).
     */
    private Open shuffled(final Open in, final PlanNode consumer, final int input, final List<String> decisionKeys,
                          final LocalShuffle how, final DispatchMode mode, final PerKey perKey) {
        final DecidedExchange exchange = decidedExchange(consumer, input, mode,
                how.boundaries() != null ? FragmentType.RANGE : FragmentType.HASH);
        final List<String> keys = exchange.keys();
        if (!keys.equals(decisionKeys)) {
            throw new IllegalStateException("the plan decided " + exchange + ", but its decision shuffles by "
                    + decisionKeys + ": a plan whose exchanges do not fit its decisions is not run; decide it with"
                    + " PhysicalPlanner.plan");
        }
        final boolean range = exchange.boundaries() != null;
        final int[] keyColumns = new int[keys.size()];
        final TypeKind[] kinds = new TypeKind[keys.size()];
        for (int k = 0; k < keyColumns.length; k++) {
            keyColumns[k] = in.rowType.indexOf(keys.get(k));
            kinds[k] = in.rowType.type(keyColumns[k]).storage().kind();
        }
        final BucketFunction owner = range ? exchange.boundaries().bucketFunction()
                : new HashBucketFunction(topology.bucketCount(), kinds);
        final BucketFunction function = perKey == null ? owner
                : perKey.dispatch() == HeavyKeyDispatch.REPLICATE
                ? HeavyKeyBucketFunction.replicate(owner, kinds[0], perKey.keys())
                // In one process every bucket is local: the heavy rows are spread over all of them.
                : HeavyKeyBucketFunction.localFirst(owner, kinds[0], perKey.keys(),
                        exchanges.distributed() ? topology.firstBucketOf(cn) : 0,
                        exchanges.distributed() ? topology.coresPerCn() : topology.bucketCount(),
                        perKey.dropNullKeys());
        return exchanged(in, exchange, keyColumns, function, mode == DispatchMode.TO_OWNER ? "shuffle"
                : "shuffle " + mode);
    }

    private static List<String> names(final List<NamedExpr> keys) {
        final List<String> out = new ArrayList<>();
        for (final NamedExpr k : keys) {
            out.add(k.name());
        }
        return out;
    }

    /** A scan of this CN's share of the blocks (all of them in one process). */
    private TableScan scan(final PlanNode.Scan s) {
        return filters.noteScan(s, new TableScan(tables.table(s.table()), s.columns(), s.pruning(), s.filter(), cn,
                topology.cnCount(), caches.cnCount() == topology.cnCount() ? caches.cachedOf(s.table()) : null));
    }

    private Open open(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return scanned(s, scan(s));
        }
        if (node instanceof PlanNode.Filter f) {
            final Open in = open(f.input());
            in.add(new Filter(in.rowType, f.predicate()));
            return in;
        }
        if (node instanceof PlanNode.Project p) {
            final Open in = openReading(p.input(), columnsRead(p));
            in.add(new Projection(in.rowType, p.items()));
            in.partitioning = in.partitioning == null ? null : in.partitioning.renamed(p.items());
            return in;
        }
        if (node instanceof PlanNode.Aggregation a) {
            return aggregate(a);
        }
        if (node instanceof PlanNode.Join j) {
            return join(j, null);
        }
        if (node instanceof PlanNode.OrderBy o) {
            return orderBy(o, open(o.input()));
        }
        if (node instanceof PlanNode.UnionAll u) {
            return unionAll(u);
        }
        if (node instanceof PlanNode.Window w) {
            return window(w);
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return nestedLoopJoin(j);
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return assertOneRow(a);
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        Open in = open(l.input());
        in = exchanges.distributed() ? gathered(in, l, 0, "limit") : in;
        final Limit sink = new Limit(in.rowType, l.limit());
        return breaker(in, sink, sink.output(), "limit");
    }
}
