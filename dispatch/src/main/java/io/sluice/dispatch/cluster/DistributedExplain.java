package io.sluice.dispatch.cluster;

import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.OperatorFactory;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.RuntimeFilterPlan;
import io.sluice.engine.plan.FragmentType;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.Locale;

/**
 * The distributed plan as text, in the spirit of a distributed EXPLAIN: each join's and group-by's
 * strategy and why (with the boundaries' method), then the fragments in run order with their
 * distribution type, each pipeline from source through operators to sink, and an EXCHANGE OUT /
 * EXCHANGE IN line per exchange with its mode, keys and the share of its rows expected to cross CNs.
 */
final class DistributedExplain {
    private DistributedExplain() {
    }

    static String render(final String name, final StrategyConfig config, final Topology topology,
            final PipelineCompiler.Compiled compiled, final ClusterExchanges exchanges) {
        final StringBuilder sb = new StringBuilder();
        sb.append("Distributed plan of ").append(name).append(" on ").append(topology).append(" (")
                .append(topology.bucketCount()).append(" buckets), strategy ").append(config.strategy()).append('\n');
        for (final Decision d : compiled.decisions()) {
            sb.append("  ").append(d).append('\n');
        }
        if (!compiled.runtimeFilters().isEmpty()) {
            sb.append("Runtime filters (build key -> probe scan column, kinds, scope, where applied):\n");
            for (final RuntimeFilterPlan f : compiled.runtimeFilters()) {
                sb.append("  ").append(f).append('\n');
            }
        }
        int fragment = 0;
        for (final Pipeline p : compiled.pipelines()) {
            final FragmentType type = compiled.fragments().get(p);
            sb.append("Fragment ").append(fragment++).append(" [").append(type).append("] pipeline ")
                    .append(p.name()).append('\n');
            sb.append("    ").append(p.source()).append('\n');
            if (p.source() instanceof ColocatedScan) {
                sb.append("      expected rows crossing CNs: 0\n");
            }
            for (final OperatorFactory op : p.operators()) {
                sb.append("    -> ").append(op).append('\n');
            }
            sb.append("    => ").append(p.sink()).append('\n');
            if (p.sink() instanceof DispatchSink sink) {
                sb.append("      expected rows crossing CNs: ").append(crossing(sink, topology)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The share of an exchange's rows expected to leave their CN, from its mode and the cluster's shape. */
    private static String crossing(final DispatchSink sink, final Topology topology) {
        final int n = topology.cnCount();
        final DispatchMode mode = sink.plannedMode();
        if (mode == DispatchMode.LOCAL_ONLY || n == 1) {
            return "0";
        }
        if (mode == DispatchMode.BROADCAST || mode == DispatchMode.ALL_CN) {
            return "every row, to each of the " + (n - 1) + " other CNs";
        }
        return String.format(Locale.ROOT, "about (n-1)/n = %.0f%%", 100.0 * (n - 1) / n);
    }
}
