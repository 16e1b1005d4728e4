package io.sluice.perf.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Serves one process's metrics at {@code http://HOST:PORT/metrics} in the Prometheus text format: the
 * JVM's (memory, collections, threads, classes; names as the Prometheus Java client gives them,
 * {@code jvm_*}) and those its role registers, all named {@code sluice_*}.
 */
public final class MetricsServer implements AutoCloseable {
    private final PrometheusRegistry registry;
    private final HTTPServer server;

    private MetricsServer(final PrometheusRegistry registry, final HTTPServer server) {
        this.registry = registry;
        this.server = server;
    }

    /**
     * Listens on {@code host}:{@code port} (port 0: any free port).
     *
     * @throws IllegalArgumentException naming the address when it cannot be bound
     */
    public static MetricsServer start(final String host, final int port) {
        final PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        try {
            final HTTPServer server = HTTPServer.builder().inetAddress(InetAddress.getByName(host)).port(port)
                    .registry(registry).buildAndStart();
            return new MetricsServer(registry, server);
        } catch (final UnknownHostException e) {
            throw new IllegalArgumentException("--metrics " + host + ":" + port + ": unknown host " + host, e);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage()
                    + "; choose another --metrics address (port 0: any free port)", e);
        }
    }

    /** Where metrics are registered. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
