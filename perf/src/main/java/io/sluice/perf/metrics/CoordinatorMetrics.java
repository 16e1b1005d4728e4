package io.sluice.perf.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.dispatch.cluster.Coordinator;
import io.sluice.dispatch.cluster.QueryListener;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.RuntimeFilterStats;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * A coordinator's metrics: queries started, finished and failed (by error type), their latency, the rows
 * and bytes their exchanges moved across and inside CNs by exchange mode, what runtime filters passed and
 * skipped, and per CN its heartbeat lag, state, running queries, RSS, refused messages and retransmits,
 * and the messages the coordinator refused. Counters move as the coordinator reports each query
 * ({@link QueryListener}); the membership is read when Prometheus scrapes.
 */
public final class CoordinatorMetrics implements QueryListener {
    private static final double[] LATENCY_BOUNDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
        120, 300, 600};

    private final Counter started;
    private final Counter finished;
    private final Counter failed;
    private final Histogram latency;
    private final Counter exchangeRows;
    private final Counter exchangeBytes;
    private final Counter filterRows;
    private final Counter filterBlocksSkipped;
    private final AtomicInteger running = new AtomicInteger();

    private CoordinatorMetrics(final PrometheusRegistry registry) {
        started = Counter.builder().name("sluice_queries_started_total")
                .help("Queries the coordinator admitted and shipped to their CNs.").register(registry);
        finished = Counter.builder().name("sluice_queries_finished_total")
                .help("Queries that finished with their answer.").register(registry);
        failed = Counter.builder().name("sluice_queries_failed_total")
                .help("Queries that failed, timed out or were cancelled after they started, by error type.")
                .labelNames("error_type").register(registry);
        latency = Histogram.builder().name("sluice_query_duration_seconds")
                .help("Time from a query's start to its answer, of the queries that finished.").classicOnly()
                .classicUpperBounds(LATENCY_BOUNDS).register(registry);
        exchangeRows = Counter.builder().name("sluice_exchange_rows_total")
                .help("Rows the exchanges of finished queries moved, by exchange mode; path remote: from one CN to"
                        + " another, local: inside a CN.").labelNames("mode", "path").register(registry);
        exchangeBytes = Counter.builder().name("sluice_exchange_bytes_total")
                .help("Bytes the exchanges of finished queries moved (remote: frame payloads, local: column bytes),"
                        + " by exchange mode.").labelNames("mode", "path").register(registry);
        filterRows = Counter.builder().name("sluice_runtime_filter_probe_rows_total")
                .help("Probe rows runtime filters tested (result tested) and passed (result passed).")
                .labelNames("result").register(registry);
        filterBlocksSkipped = Counter.builder().name("sluice_runtime_filter_blocks_skipped_total")
                .help("Probe blocks runtime filters skipped unread, their zonemaps outside the filter.")
                .register(registry);
        GaugeWithCallback.builder().name("sluice_queries_running")
                .help("Queries running now (started, not yet finished or failed).")
                .callback(cb -> cb.call(running.get())).register(registry);
    }

    /** Registers a coordinator's metrics; the caller sets the result as the coordinator's listener. */
    public static CoordinatorMetrics register(final PrometheusRegistry registry, final Coordinator coordinator) {
        final CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
        GaugeWithCallback.builder().name("sluice_cn_heartbeat_lag_seconds")
                .help("Time since the coordinator last heard a CN's heartbeat.").labelNames("cn")
                .callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(m.sinceHeardMillis() / 1000.0, m.name());
                    }
                }).register(registry);
        GaugeWithCallback.builder().name("sluice_cn_state")
                .help("1 for each CN in the membership, labelled with its state (alive, suspect, dead).")
                .labelNames("cn", "state").callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(1, m.name(), m.state().name().toLowerCase(Locale.ROOT));
                    }
                }).register(registry);
        GaugeWithCallback.builder().name("sluice_cn_active_queries")
                .help("Queries a CN runs now, as its last heartbeat said.").labelNames("cn").callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(m.activeQueries(), m.name());
                    }
                }).register(registry);
        GaugeWithCallback.builder().name("sluice_cn_rss_bytes")
                .help("A CN process's peak resident set, as its last heartbeat said.").labelNames("cn").callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(m.rssBytes(), m.name());
                    }
                }).register(registry);
        CounterWithCallback.builder().name("sluice_cn_rejected_messages_total")
                .help("Messages and frames a CN refused (unsigned, replayed, misaddressed or garbage).")
                .labelNames("cn").callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(m.rejectedMessages(), m.name());
                    }
                }).register(registry);
        CounterWithCallback.builder().name("sluice_cn_retransmits_total")
                .help("Packets a CN's media driver sent again.").labelNames("cn").callback(cb -> {
                    for (final MemberStatus m : coordinator.membership()) {
                        cb.call(m.retransmits(), m.name());
                    }
                }).register(registry);
        CounterWithCallback.builder().name("sluice_coordinator_rejected_messages_total")
                .help("Messages the coordinator refused (unsigned, replayed, misaddressed or garbage).")
                .callback(cb -> cb.call(coordinator.badMessages())).register(registry);
        coordinator.listener(metrics);
        return metrics;
    }

    /** Adds a gauge of the MySQL protocol server's connections. */
    public static void registerMySqlConnections(final PrometheusRegistry registry, final IntSupplier connections) {
        GaugeWithCallback.builder().name("sluice_mysql_connections").help("MySQL clients connected now.")
                .callback(cb -> cb.call(connections.getAsInt())).register(registry);
    }

    @Override
    public void started(final long queryId, final String name) {
        started.inc();
        running.incrementAndGet();
    }

    @Override
    public void finished(final long queryId, final long nanos, final QueryStats stats) {
        finished.inc();
        running.decrementAndGet();
        latency.observe(nanos / 1e9);
        if (stats == null) {
            return;
        }
        for (final QueryStats.ExchangeStats e : stats.exchanges()) {
            exchangeRows.labelValues(e.mode(), "remote").inc(e.rowsRemote());
            exchangeRows.labelValues(e.mode(), "local").inc(e.rowsLocal());
            exchangeBytes.labelValues(e.mode(), "remote").inc(e.bytesRemote());
            exchangeBytes.labelValues(e.mode(), "local").inc(e.bytesLocal());
        }
        for (final RuntimeFilterStats f : stats.runtimeFilters()) {
            filterRows.labelValues("tested").inc(f.probeRowsIn());
            filterRows.labelValues("passed").inc(f.probeRowsOut());
            filterBlocksSkipped.inc(f.blocksSkipped());
        }
    }

    @Override
    public void failed(final long queryId, final String errorType, final long nanos) {
        failed.labelValues(errorType).inc();
        running.decrementAndGet();
    }
}
