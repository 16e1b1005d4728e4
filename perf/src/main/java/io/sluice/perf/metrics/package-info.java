/**
 * Prometheus metrics of the cluster processes ({@code --metrics HOST:PORT} on {@code sluice coordinator},
 * {@code sluice cn} and {@code sluice cluster up}): a {@link io.sluice.perf.metrics.MetricsServer} serving
 * {@code /metrics} in the Prometheus text format, with the JVM's metrics and those of the process's role,
 * {@link io.sluice.perf.metrics.CoordinatorMetrics} or {@link io.sluice.perf.metrics.CnMetrics}. The
 * Prometheus client library stays in perf: dispatch only calls a plain
 * {@link io.sluice.dispatch.cluster.QueryListener} and answers for its membership.
 */
package io.sluice.perf.metrics;
