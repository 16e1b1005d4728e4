package io.sluice.engine.plan;

import io.sluice.engine.exec.HashJoinBuild;
import io.sluice.engine.exec.PartitionedHashJoinBuild;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.RuntimeFilterBuild;
import io.sluice.engine.exec.RuntimeFilterHandle;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.ScanRuntimeFilter;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterScope;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Connects the runtime filters a {@link DecidedPlan} targets to the operators one CN compiled for them: the
 * {@link PipelineCompiler} notes each target's join build and probe scan as it creates them, and at the end the
 * wiring gives each build a {@link RuntimeFilterBuild} and each scan the {@link ScanRuntimeFilter} that applies
 * it, where the scan's pipeline runs after the build finished (a scan that may run first would only wait in
 * vain: it gets no filter).
 */
final class RuntimeFilterWiring {
    /** The filters as planned and their handles on this CN, in filter-id order. */
    record Wired(List<RuntimeFilterPlan> planned, List<RuntimeFilterHandle> handles) {
        Wired {
            planned = List.copyOf(planned);
            handles = List.copyOf(handles);
        }
    }

    /** A join build that makes a runtime filter: its sink, its rows' type and its pipeline. */
    private record BuildSide(Sink<?> sink, RowType rowType, Pipeline pipeline) {
    }

    private final StrategyConfig config;
    private final Topology topology;
    private final int cn;
    private final RuntimeFilterRouter router;
    private final Map<PlanNode.Join, RuntimeFilterTarget> filterOfJoin = new IdentityHashMap<>();
    private final Map<PlanNode.Scan, List<RuntimeFilterTarget>> filtersOfScan = new IdentityHashMap<>();
    private final Map<Integer, TableScan> scans = new HashMap<>();
    private final Map<Integer, BuildSide> builds = new HashMap<>();

    /**
     * @param targets the decided plan's runtime filters
     * @param router  where the builds send their partial filters
     */
    RuntimeFilterWiring(final List<RuntimeFilterTarget> targets, final StrategyConfig config, final Topology topology,
                        final int cn, final RuntimeFilterRouter router) {
        this.config = config;
        this.topology = topology;
        this.cn = cn;
        this.router = router;
        for (final RuntimeFilterTarget t : targets) {
            filterOfJoin.put(t.join(), t);
            filtersOfScan.computeIfAbsent(t.scan(), s -> new ArrayList<>()).add(t);
        }
    }

    /** Whether the join's runtime filter is for a scan whose rows reach the probe only through a group-by. */
    boolean belowAggregation(final PlanNode.Join j) {
        final RuntimeFilterTarget t = filterOfJoin.get(j);
        return t != null && RuntimeFilterTarget.belowAggregation(j.probe(), t.scan());
    }

    /**
     * Whether a runtime filter made by a join outside {@code node} is planned for a scan inside it: that node's rows
     * then depend on the join whose build makes the filter, so another reader of an equal node may not share them.
     * A filter whose join lies inside the node too only skips rows that join drops anyway (TPC-DS Q11's WITH query
     * joins web_sales to date_dim with a filter on date_dim): the node's rows are the same with it or without.
     */
    boolean filtersWithin(final PlanNode node) {
        if (filtersOfScan.isEmpty()) {
            return false;
        }
        final List<PlanNode> inside = PlanWalk.preOrder(node);
        final Set<PlanNode> joinsInside = Collections.newSetFromMap(new IdentityHashMap<>());
        for (final PlanNode n : inside) {
            if (n instanceof PlanNode.Join) {
                joinsInside.add(n);
            }
        }
        for (final PlanNode n : inside) {
            if (n instanceof PlanNode.Scan s) {
                for (final RuntimeFilterTarget t : filtersOfScan.getOrDefault(s, List.of())) {
                    if (!joinsInside.contains(t.join())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Notes the build sink (and its pipeline) compiled for a join that makes a runtime filter. */
    void noteBuild(final PlanNode.Join j, final Sink<?> build, final RowType rowType, final Pipeline pipeline) {
        final RuntimeFilterTarget t = filterOfJoin.get(j);
        if (t != null) {
            builds.put(t.id(), new BuildSide(build, rowType, pipeline));
        }
    }

    /** Notes the scan compiled for a scan node that may apply runtime filters; returns it. */
    TableScan noteScan(final PlanNode.Scan s, final TableScan scan) {
        for (final RuntimeFilterTarget t : filtersOfScan.getOrDefault(s, List.of())) {
            scans.put(t.id(), scan);
        }
        return scan;
    }

    /**
     * The pipelines a scan's pipeline must wait for: the builds, compiled before it, of the filters it applies below
     * a group-by (otherwise nothing orders that scan after the build the join above depends on).
     */
    List<Pipeline> buildsBefore(final PlanNode.Scan s) {
        final List<Pipeline> out = new ArrayList<>();
        for (final RuntimeFilterTarget t : filtersOfScan.getOrDefault(s, List.of())) {
            final BuildSide build = builds.get(t.id());
            if (build != null && RuntimeFilterTarget.belowAggregation(t.join().probe(), s)) {
                out.add(build.pipeline());
            }
        }
        return out;
    }

    /** Connects each planned filter's build to its scan where the scan's pipeline runs after the build finished. */
    Wired attach(final List<Pipeline> pipelines) {
        final List<RuntimeFilterTarget> targets = new ArrayList<>(filterOfJoin.values());
        targets.sort(Comparator.comparingInt(RuntimeFilterTarget::id));
        final RunOrder order = new RunOrder(pipelines);
        final List<RuntimeFilterPlan> planned = new ArrayList<>();
        final List<RuntimeFilterHandle> handles = new ArrayList<>();
        int id = 0;
        for (final RuntimeFilterTarget t : targets) {
            final TableScan scan = scans.get(t.id());
            final BuildSide build = builds.get(t.id());
            final Pipeline scanPipeline = scan == null ? null : order.readerOf(scan);
            if (build == null || scanPipeline == null || !order.finishedBefore(scanPipeline).contains(build.pipeline())) {
                continue;
            }
            final int n = t.keys().size();
            if (n > 1 && RuntimeFilterBuild.integerKey(List.of(t.join().buildKeys().get(t.keys().get(0))), build.rowType())) {
                // A key of several columns is tested by hash only: its first integer column's exact filter goes first
                // and spares the hashing of the rows it drops.
                handles.add(attach(t, 1, id++, scan, build, planned));
            }
            handles.add(attach(t, n, id++, scan, build, planned));
        }
        return new Wired(planned, handles);
    }

    /** Attaches the filter of the target's first {@code keys} key columns, number {@code id}, to its build and scan. */
    private RuntimeFilterHandle attach(final RuntimeFilterTarget t, final int keys, final int id,
                                       final TableScan scan, final BuildSide build,
                                       final List<RuntimeFilterPlan> planned) {
        final List<Expr> buildKeys = new ArrayList<>();
        final List<Expr> probeKeys = new ArrayList<>();
        final List<String> buildNames = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            final Expr key = t.join().buildKeys().get(t.keys().get(i));
            buildKeys.add(key);
            buildNames.add(key.toString());
            probeKeys.add(Expr.col(t.probe().get(i)));
        }
        final boolean perBucket = t.scope() == FilterScope.PER_BUCKET;
        final boolean fromEveryCn = t.scope() == FilterScope.GLOBAL || (perBucket && !t.colocated());
        final List<String> probeColumns = t.probe().subList(0, keys);
        final RuntimeFilterHandle handle = new RuntimeFilterHandle(id, buildNames, probeColumns, t.scope(),
                perBucket ? topology.bucketCount() : 1, config.runtimeFilters(), fromEveryCn);
        // Partials (of several cores' or CNs' builds) merge only when sized alike: size them from the plan's
        // estimate (per bucket: its share of the build), never from the rows one build happens to hold.
        final long buildRows = t.buildRows();
        final int bloomBytes = config.runtimeFilters().bloomBytesFor(
                perBucket ? Math.max(1, buildRows / topology.bucketCount()) : buildRows);
        final RuntimeFilterBuild filterBuild = new RuntimeFilterBuild(handle, router, buildKeys, build.rowType(),
                bloomBytes);
        if (build.sink() instanceof PartitionedHashJoinBuild partitioned) {
            partitioned.addRuntimeFilter(filterBuild, topology.firstBucketOf(cn), topology.bucketCount());
        } else {
            ((HashJoinBuild) build.sink()).addRuntimeFilter(filterBuild);
        }
        final int keyColumn = scan.rowType().indexOf(t.probe().get(0));
        final RangeBucketFunction function = perBucket && !t.colocated()
                ? (RangeBucketFunction) t.how().boundaries().bucketFunction() : null;
        scan.addRuntimeFilter(new ScanRuntimeFilter(handle, probeKeys, scan.rowType(),
                probeKeys.size() == 1 || perBucket ? keyColumn : -1, function));
        final List<FilterKind> kinds = RuntimeFilterBuild.integerKey(buildKeys, build.rowType())
                ? List.of(FilterKind.MIN_MAX, FilterKind.IN_LIST, FilterKind.BITMAP, FilterKind.BLOOM)
                : List.of(FilterKind.BLOOM);
        planned.add(new RuntimeFilterPlan(id, buildNames, probeColumns, t.scan().table(), kinds, t.scope(),
                (t.colocated() ? "colocated scan of " : "scan of ") + t.scan().table()
                        + (perBucket ? ", bucket b's filter on bucket b's rows" : "") + ", before any shuffle"));
        return handle;
    }
}
