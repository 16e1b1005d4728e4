package io.sluice.perf.cli;

import io.sluice.perf.metrics.MetricsServer;
import io.sluice.transport.Endpoint;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * {@code --metrics HOST:PORT} of {@code sluice coordinator}, {@code sluice cn} and {@code sluice cluster up}:
 * serve the process's metrics to Prometheus at {@code http://HOST:PORT/metrics}.
 */
final class MetricsOption {
    @Option(names = "--metrics", paramLabel = "HOST:PORT",
            description = "Serve this process's metrics for Prometheus at http://HOST:PORT/metrics (port 0: any free"
                + " port; the one taken is printed): queries, latency, exchange traffic, CN heartbeats, refused"
                + " messages and the JVM's; see docs/metrics.md.")
    String metrics;

    /** Checks the address before anything starts. */
    void check() {
        if (metrics != null) {
            Endpoint.parse(metrics, false).address();
        }
    }

    /** Starts the metrics server when --metrics was given, printing where; else returns null. */
    MetricsServer start(final Consumer<String> log) {
        if (metrics == null) {
            return null;
        }
        final Endpoint e = Endpoint.parse(metrics, false);
        final MetricsServer server = MetricsServer.start(e.host(), e.port());
        log.accept("metrics listening on " + e.host() + ":" + server.port() + " (http://" + e.host() + ":"
                + server.port() + "/metrics)");
        return server;
    }
}
