package io.sluice.dispatch.explain;

import io.sluice.engine.exec.AggregationPhase;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.Filter;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.FragmentType;
import io.sluice.engine.plan.LocalExchange;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.PlanStats;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeyDispatch;
import io.sluice.shuffle.Topology;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the {@link ExplainPlan} of a query once, from what the compiler made for the coordinator's CN
 * (its pipelines, their fragment types, the exchanges it asked for) and the plan tree it compiled: the
 * operator tree of the pipelines ({@link PipelineTree}), its estimates ({@link PlanEstimates}), then the
 * operators numbered in pre-order with their "Outputs &amp; filters", and the fragments cut at the exchanges.
 */
public final class ExplainBuilder {

    private final String query;
    private final String strategy;
    private final Topology topology;
    private final boolean distributed;
    private final Catalog tables;
    private final PipelineCompiler.Compiled compiled;
    private final PipelineTree tree;
    private final PlanEstimates estimates;
    private int[] parentOf;

    private ExplainBuilder(final String query, final String strategy, final Topology topology, final boolean distributed,
                           final Catalog tables, final PipelineCompiler.Compiled compiled,
                           final List<RecordedExchange> exchanges) {
        this.query = query;
        this.strategy = strategy;
        this.topology = topology;
        this.distributed = distributed;
        this.tables = tables;
        this.compiled = compiled;
        this.tree = new PipelineTree(query, compiled, exchanges);
        this.estimates = new PlanEstimates(new PlanStats(tables), topology, distributed);
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
        final OperatorNode root = tree.root();
        estimates.match(root, plan);
        estimates.estimate(root);
        final List<OperatorNode> order = new ArrayList<>();
        number(root, 0, order);
        final List<List<OperatorNode>> fragments = new ArrayList<>();
        final List<List<Integer>> fragmentSources = new ArrayList<>();
        fragments.add(new ArrayList<>());
        fragmentSources.add(new ArrayList<>());
        cut(root, 0, fragments, fragmentSources);
        final List<ExplainOperator> operators = new ArrayList<>();
        for (final OperatorNode n : order) {
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
        for (final Pipeline p : compiled.pipelines()) {
            steps.add(p.operators().size() + 2);
        }
        return new ExplainPlan(query, topology, strategy, distributed, compiled.decisions(), compiled.runtimeFilters(),
                operators, out, steps, false);
    }

    // ---- numbering, fragments, rows ----

    private void number(final OperatorNode x, final int depth, final List<OperatorNode> order) {
        x.id = order.size();
        x.depth = depth;
        order.add(x);
        for (final OperatorNode c : x.children) {
            number(c, depth + 1, order);
        }
    }

    private void cut(final OperatorNode x, final int fragment, final List<List<OperatorNode>> fragments,
                     final List<List<Integer>> sources) {
        x.fragment = fragment;
        fragments.get(fragment).add(x);
        for (final OperatorNode c : x.children) {
            if (c.kind == OperatorKind.EXCHANGE_OUT) {
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

    private ExplainFragment fragment(final int id, final List<OperatorNode> nodes, final List<Integer> sources) {
        final OperatorNode top = nodes.get(0);
        OperatorNode spine = top;
        while (!spine.children.isEmpty() && spine.children.get(0).fragment == id) {
            spine = spine.children.get(0);
        }
        final FragmentType type = spine.sourcePipeline >= 0
                ? compiled.fragments().get(compiled.pipelines().get(spine.sourcePipeline)) : FragmentType.SOURCE;
        final String output = top.kind == OperatorKind.EXCHANGE_OUT
                ? operatorName(top) + " " + ExplainLabels.exchange(top.exchange) + ", read by fragment " + parentOf[id]
                : "the result" + (distributed ? ", on the coordinator" : "");
        final List<Integer> ids = new ArrayList<>();
        for (final OperatorNode n : nodes) {
            ids.add(n.id);
        }
        final List<List<String>> lines = new ArrayList<>();
        for (int p = 0; p < compiled.pipelines().size(); p++) {
            final OperatorNode source = tree.sourceNodeOf(p);
            if (source != null && source.fragment == id) {
                lines.add(tree.pipelineLines(p));
            }
        }
        return new ExplainFragment(id, type, output, ids, lines, sources);
    }

    private ExplainOperator operator(final OperatorNode x) {
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
            case NESTED_LOOP_JOIN -> details.add("conds(" + (n instanceof PlanNode.NestedLoopJoin j && j.condition() != null
                    ? j.condition() : "nil") + ")");
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
                if (x.kind == OperatorKind.SORTED_RUNS) {
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
            final boolean out = x.kind == OperatorKind.EXCHANGE_OUT;
            if (out && !e.keys().isEmpty()) {
                details.add(0, "(#keys=" + e.keys().size() + ", " + bracketed(e.keys()) + ")");
            }
            details.add("dispatch(" + e.mode() + (e.function() == null ? "" : ", " + e.function().bucketCount()
                    + " buckets") + perKey(e.function()) + ")");
            if (out) {
                details.add("est_cross_cn_rows(" + (x.cross < 0 ? "unknown" : x.cross) + ")");
            }
            exchange = new ExplainOperator.Exchange(e.id(), e.mode().name(), e.keys(),
                    out ? (x.partitionLabel.isEmpty() ? "SINGLE" : x.partitionLabel) : "", out ? x.cross : -1, out);
        }
        final List<String> outputs = x.output == null ? List.of() : x.output.names();
        final List<Integer> children = new ArrayList<>();
        for (final OperatorNode c : x.children) {
            children.add(c.id);
        }
        final ExplainOperator.Counted counted = x.rowsPipeline < 0 ? null
                : new ExplainOperator.Counted(x.rowsPipeline, x.rowsStep, x.timeSteps);
        final List<String> local = new ArrayList<>();
        for (final LocalExchange d : compiled.localExchanges()) {
            if (ownsLocalExchanges(x.kind) && sameNode(x.plan, d.node())) {
                local.add(d.brief());
            }
        }
        return new ExplainOperator(x.id, x.depth, operatorName(x), name, x.est, x.cost, x.fragment, outputs, details,
                exchange, local, children, counted, null);
    }

    /** Whether the operator is one a plan node's local exchanges are listed under (not its exchanges or merge). */
    private static boolean ownsLocalExchanges(final OperatorKind kind) {
        return kind != OperatorKind.EXCHANGE_IN && kind != OperatorKind.EXCHANGE_OUT
                && kind != OperatorKind.MERGE_SORT_IN && kind != OperatorKind.MERGE_SORT;
    }

    /**
     * Whether an operator runs the plan node a local exchange was decided for: the same node, or an ORDER BY
     * that differs only in the distribution decided on it before compiling.
     */
    private static boolean sameNode(final PlanNode explained, final PlanNode decided) {
        if (explained == null) {
            return false;
        }
        if (explained instanceof PlanNode.OrderBy a && decided instanceof PlanNode.OrderBy b) {
            return a.keys().equals(b.keys()) && a.limit() == b.limit() && a.input().equals(b.input());
        }
        return explained == decided || explained.equals(decided);
    }

    private static String operatorName(final OperatorNode x) {
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
            case NESTED_LOOP_JOIN -> x.plan instanceof PlanNode.NestedLoopJoin j && j.type() != JoinType.INNER
                    ? "NESTED-LOOP " + j.type().name() + " JOIN" : "NESTED-LOOP JOIN";
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

    /** The heavy keys a per-key dispatch sends apart, and where, e.g. {@code , heavy keys [42] LOCAL_FIRST}. */
    private static String perKey(final BucketFunction function) {
        if (!(function instanceof HeavyKeyBucketFunction h) || h.heavyKeys().size() == 0) {
            // Dropping the null keys of a join that has no heavy key changes no row's bucket.
            return "";
        }
        return ", heavy keys " + Arrays.toString(h.heavyKeys().keys())
                + (h.dispatch() == HeavyKeyDispatch.LOCAL_FIRST ? " LOCAL_FIRST" : " ALL_CN");
    }
}
