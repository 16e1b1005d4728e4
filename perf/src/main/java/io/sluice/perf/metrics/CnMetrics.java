package io.sluice.perf.metrics;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.dispatch.cluster.CnServer;

/**
 * A CN process's own metrics beside the JVM's: the queries it runs now. What crossed it and what it
 * refused the coordinator exports for every CN (its heartbeats carry them).
 */
public final class CnMetrics {
    private CnMetrics() {
    }

    /** Registers the CN's metrics. */
    public static void register(final PrometheusRegistry registry, final CnServer cn) {
        GaugeWithCallback.builder().name("sluice_cn_queries_running").help("Queries this CN runs now.")
                .callback(cb -> cb.call(cn.activeQueries())).register(registry);
        GaugeWithCallback.builder().name("sluice_cn_member")
                .help("1 while this CN is a member of its coordinator's cluster, else 0.")
                .callback(cb -> cb.call(cn.isMember() ? 1 : 0)).register(registry);
    }
}
