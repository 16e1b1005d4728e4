package io.sluice.shuffle.plan;

import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.exec.ColocatedScan;
import io.sluice.shuffle.exec.Filter;
import io.sluice.shuffle.exec.HashAggregate;
import io.sluice.shuffle.exec.HashJoinBuild;
import io.sluice.shuffle.exec.HashJoinProbe;
import io.sluice.shuffle.exec.JoinType;
import io.sluice.shuffle.exec.Limit;
import io.sluice.shuffle.exec.OperatorFactory;
import io.sluice.shuffle.exec.Pipeline;
import io.sluice.shuffle.exec.PartitionedHashJoinBuild;
import io.sluice.shuffle.exec.Projection;
import io.sluice.shuffle.exec.ResultCollector;
import io.sluice.shuffle.exec.ShuffleExchange;
import io.sluice.shuffle.exec.Sink;
import io.sluice.shuffle.exec.Sort;
import io.sluice.shuffle.exec.Source;
import io.sluice.shuffle.exec.TableScan;
import io.sluice.shuffle.expr.ColumnRef;
import io.sluice.shuffle.expr.NamedExpr;
import io.sluice.shuffle.expr.RowType;
import io.sluice.storage.Table;
import io.sluice.storage.TypeKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Cuts a plan tree into pipelines at its pipeline breakers, as DuckDB does: an aggregation, a
 * sort or a limit ends the pipeline feeding it and starts one reading its result; a join ends its
 * build side's pipeline and puts a probe operator into the probe side's pipeline, which then
 * depends on the build. The list is in an order that runs each pipeline after its dependencies;
 * the last one collects the result.
 *
 * <p>Each join and group-by is distributed over the cores as {@link DetermineJoinDistribution}
 * and {@link DetermineGroupStrategy} decide: a broadcast join or merge group as above, or a
 * shuffle, where a {@link ShuffleExchange} (or a {@link ColocatedScan}) ends the input pipeline
 * and the next one takes one bucket per morsel: a shuffle join builds one table per bucket and
 * probes each bucket against its own; a shuffle group aggregates each bucket completely.
 */
public final class PipelineCompiler {
    private final Function<String, Table> tables;
    private final StrategyConfig config;
    private final int cores;
    private final PlanStats stats;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final List<Decision> decisions = new ArrayList<>();
    private int nextId;

    /** A compiler for one core with broadcast joins and merge groups. */
    public PipelineCompiler(final Function<String, Table> tables) {
        this(tables, StrategyConfig.defaults().withStrategy(Strategy.BROADCAST), 1);
    }

    /**
     * @param tables opens a stored table by name
     * @param config the strategy and the thresholds joins and group-bys are distributed by
     * @param cores  worker threads: shuffles have one bucket per core
     */
    public PipelineCompiler(final Function<String, Table> tables, final StrategyConfig config, final int cores) {
        this.tables = tables;
        this.config = config;
        this.cores = cores;
        this.stats = new PlanStats(tables);
    }

    /** The compiled query: its pipelines, the sink holding the result, and each join's and group-by's strategy. */
    public record Compiled(List<Pipeline> pipelines, ResultCollector result, List<Decision> decisions) {
    }

    /** Compiles a plan. */
    public Compiled compile(final Plan plan) {
        final Open root = open(plan.node());
        final ResultCollector result = new ResultCollector(root.rowType);
        close(root, result, "result");
        return new Compiled(List.copyOf(pipelines), result, List.copyOf(decisions));
    }

    /** A pipeline being built: its source, operators so far, their output columns, its dependencies. */
    private static final class Open {
        final Source source;
        final List<OperatorFactory> operators = new ArrayList<>();
        final List<Pipeline> dependencies = new ArrayList<>();
        RowType rowType;
        /** The shuffle this pipeline's morsels are buckets of, as slots of equal columns; null: none. */
        List<Set<String>> partitioning;

        Open(final Source source, final Pipeline dependency) {
            this.source = source;
            this.rowType = source.rowType();
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
        final Pipeline p = new Pipeline((nextId++) + " " + what, open.source, open.operators, sink, open.dependencies);
        pipelines.add(p);
        return p;
    }

    private Open aggregate(final PlanNode.Aggregation a) {
        final LocalShuffle how = DetermineGroupStrategy.decide(a, partitioningOf(a.input()), config, stats, cores);
        decisions.add(new Decision("group by " + names(a.keys()), how.choice(), how.reason()));
        final Open in;
        switch (how.choice()) {
            case MERGE -> {
                in = open(a.input());
                final HashAggregate sink = new HashAggregate(in.rowType, a.keys(), a.aggregates());
                return new Open(sink.output(), close(in, sink, "merge group"));
            }
            case REUSE_SHUFFLE -> in = open(a.input());
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
                in = bucketed(a.input(), keys, how);
            }
        }
        if (in.partitioning == null) {
            throw new IllegalStateException("group by " + names(a.keys()) + " was planned as " + how.choice()
                    + " but its input is not bucketed");
        }
        final HashAggregate sink = new HashAggregate(in.rowType, a.keys(), a.aggregates(), true);
        return new Open(sink.output(), close(in, sink, "shuffle group"));
    }

    private Open join(final PlanNode.Join j) {
        final LocalShuffle how = DetermineJoinDistribution.decide(j, config, stats, cores);
        decisions.add(new Decision("join " + j.probeKeys() + " = " + j.buildKeys(), how.choice(), how.reason()));
        final boolean buildRows = j.condition() != null || (j.type() != JoinType.SEMI && j.type() != JoinType.ANTI);
        if (how.choice() == Distribution.BROADCAST) {
            final Open buildSide = open(j.build());
            final HashJoinBuild build = new HashJoinBuild(buildSide.rowType, j.buildKeys(), buildRows);
            final Pipeline buildPipeline = close(buildSide, build, "join build");
            final Open probe = open(j.probe());
            probe.add(new HashJoinProbe(probe.rowType, j.probeKeys(), build, j.type(), j.condition()));
            probe.dependencies.add(buildPipeline);
            return probe;
        }
        final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
        final List<String> probeKeys = new ArrayList<>();
        final List<String> buildKeys = new ArrayList<>();
        for (int k = 0; k < used; k++) {
            probeKeys.add(DetermineJoinDistribution.name(j.probeKeys().get(k)));
            buildKeys.add(DetermineJoinDistribution.name(j.buildKeys().get(k)));
        }
        final Open buildSide = bucketed(j.build(), buildKeys, how);
        final PartitionedHashJoinBuild build = new PartitionedHashJoinBuild(buildSide.rowType, j.buildKeys(), cores,
                buildRows);
        final Pipeline buildPipeline = close(buildSide, build, "partitioned join build");
        final Open probe = bucketed(j.probe(), probeKeys, how);
        probe.add(new HashJoinProbe(probe.rowType, j.probeKeys(), build, j.type(), j.condition()));
        probe.dependencies.add(buildPipeline);
        if (j.type() == JoinType.INNER) {
            for (int k = 0; k < used; k++) {
                probe.partitioning.get(k).add(buildKeys.get(k));
            }
        }
        return probe;
    }

    /**
     * A pipeline whose morsels are whole buckets of a shuffle of a node's rows by the key columns:
     * a colocated scan when the node is a scan and the shuffle a colocated range, else the node's
     * pipeline ended by a shuffle exchange.
     */
    private Open bucketed(final PlanNode node, final List<String> keys, final LocalShuffle how) {
        final Open bucketed;
        if (how.choice() == Distribution.COLOCATE && node instanceof PlanNode.Scan s) {
            final TableScan scan = scan(s);
            bucketed = new Open(new ColocatedScan(scan, scan.rowType().indexOf(keys.get(0)), how.boundaries()), null);
        } else {
            final Open in = open(node);
            final int[] keyColumns = new int[keys.size()];
            final TypeKind[] kinds = new TypeKind[keys.size()];
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = in.rowType.indexOf(keys.get(k));
                kinds[k] = in.rowType.type(keyColumns[k]).storage().kind();
            }
            final BucketFunction function = how.boundaries() != null ? how.boundaries().bucketFunction()
                    : new HashBucketFunction(cores, kinds);
            final ShuffleExchange exchange = new ShuffleExchange(in.rowType, keyColumns, function, config.shuffle());
            bucketed = new Open(exchange.output(), close(in, exchange, "shuffle"));
        }
        bucketed.partitioning = new ArrayList<>();
        for (final String k : keys) {
            bucketed.partitioning.add(new HashSet<>(Set.of(k)));
        }
        return bucketed;
    }

    /** The shuffle a node's output rows are bucketed by without a new exchange: only a join's can be. */
    private List<Set<String>> partitioningOf(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return partitioningOf(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return renamed(partitioningOf(p.input()), p.items());
        }
        if (node instanceof PlanNode.Join j) {
            final LocalShuffle how = DetermineJoinDistribution.decide(j, config, stats, cores);
            if (how.choice() == Distribution.BROADCAST) {
                return partitioningOf(j.probe());
            }
            final int used = how.boundaries() != null ? 1 : j.probeKeys().size();
            final List<Set<String>> slots = new ArrayList<>();
            for (int k = 0; k < used; k++) {
                final Set<String> slot = new HashSet<>();
                slot.add(DetermineJoinDistribution.name(j.probeKeys().get(k)));
                if (j.type() == JoinType.INNER) {
                    slot.add(DetermineJoinDistribution.name(j.buildKeys().get(k)));
                }
                slots.add(slot);
            }
            return slots;
        }
        return null;
    }

    /** A partitioning after a projection: each slot keeps the columns passed on unchanged; null if one loses all. */
    private static List<Set<String>> renamed(final List<Set<String>> partitioning, final List<NamedExpr> items) {
        if (partitioning == null) {
            return null;
        }
        final List<Set<String>> out = new ArrayList<>();
        for (final Set<String> slot : partitioning) {
            final Set<String> kept = new HashSet<>();
            for (final NamedExpr item : items) {
                if (item.expr() instanceof ColumnRef r && slot.contains(r.name())) {
                    kept.add(item.name());
                }
            }
            if (kept.isEmpty()) {
                return null;
            }
            out.add(kept);
        }
        return out;
    }

    private static List<String> names(final List<NamedExpr> keys) {
        final List<String> out = new ArrayList<>();
        for (final NamedExpr k : keys) {
            out.add(k.name());
        }
        return out;
    }

    private TableScan scan(final PlanNode.Scan s) {
        return new TableScan(tables.apply(s.table()), s.columns(), s.pruning(), s.filter());
    }

    private Open open(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return new Open(scan(s), null);
        }
        if (node instanceof PlanNode.Filter f) {
            final Open in = open(f.input());
            in.add(new Filter(in.rowType, f.predicate()));
            return in;
        }
        if (node instanceof PlanNode.Project p) {
            final Open in = open(p.input());
            in.add(new Projection(in.rowType, p.items()));
            in.partitioning = renamed(in.partitioning, p.items());
            return in;
        }
        if (node instanceof PlanNode.Aggregation a) {
            return aggregate(a);
        }
        if (node instanceof PlanNode.Join j) {
            return join(j);
        }
        if (node instanceof PlanNode.OrderBy o) {
            final Open in = open(o.input());
            final Sort sink = new Sort(in.rowType, o.keys(), o.limit());
            return new Open(sink.output(), close(in, sink, "sort"));
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        final Open in = open(l.input());
        final Limit sink = new Limit(in.rowType, l.limit());
        return new Open(sink.output(), close(in, sink, "limit"));
    }
}
