package io.sluice.dispatch;

import io.aeron.Aeron;
import io.aeron.RethrowingErrorHandler;
import io.sluice.shuffle.Topology;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.TransportContext;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;

/**
 * N CNs in one JVM, for tests and benchmarks. Over {@code aeron:ipc} the CNs share one embedded
 * media driver (IPC does not cross drivers), each with an Aeron client of its own; over
 * {@code aeron:udp} each CN has its own driver in its own directory, as separate processes would.
 * Closing closes the nodes (their subscriptions and publications), then the clients, then the drivers.
 */
public final class EmbeddedCluster implements AutoCloseable {
    private final List<AutoCloseable> resources;
    private final ComputeNode[] nodes;

    private EmbeddedCluster(final List<AutoCloseable> resources, final ComputeNode[] nodes) {
        this.resources = resources;
        this.nodes = nodes;
    }

    /** {@code cnCount} CNs on one shared driver, over {@code aeron:ipc}. */
    public static EmbeddedCluster ipc(final int cnCount, final TransportContext transport,
            final DispatchContext dispatch) {
        final List<AutoCloseable> resources = new ArrayList<>();
        final ComputeNode[] nodes = new ComputeNode[cnCount];
        boolean started = false;
        try {
            final EmbeddedDriver driver = EmbeddedDriver.launch(transport);
            resources.add(driver);
            final Channels channels = Channels.ipc(cnCount);
            for (int cn = 0; cn < cnCount; cn++) {
                final Aeron client = Aeron.connect(new Aeron.Context()
                        .aeronDirectoryName(driver.directory().getPath())
                        .subscriberErrorHandler(RethrowingErrorHandler.INSTANCE)
                        .driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(transport.clientLivenessTimeoutNs())));
                resources.add(0, client);
                nodes[cn] = new ComputeNode(cn, client, transport, dispatch, channels);
            }
            started = true;
            return new EmbeddedCluster(resources, nodes);
        } finally {
            if (!started) {
                CloseHelper.quietCloseAll(nodes);
                CloseHelper.quietCloseAll(resources);
            }
        }
    }

    /** {@code cnCount} CNs, each with its own driver, CN k receiving on {@code aeron:udp} at host:basePort + k. */
    public static EmbeddedCluster udp(final int cnCount, final String host, final int basePort,
            final TransportContext transport, final DispatchContext dispatch) {
        final List<AutoCloseable> resources = new ArrayList<>();
        final ComputeNode[] nodes = new ComputeNode[cnCount];
        boolean started = false;
        try {
            final Channels channels = Channels.udp(host, basePort, cnCount);
            for (int cn = 0; cn < cnCount; cn++) {
                final EmbeddedDriver driver = EmbeddedDriver.launch(transport);
                resources.add(driver);
                nodes[cn] = new ComputeNode(cn, driver.aeron(), transport, dispatch, channels);
            }
            started = true;
            return new EmbeddedCluster(resources, nodes);
        } finally {
            if (!started) {
                CloseHelper.quietCloseAll(nodes);
                CloseHelper.quietCloseAll(resources);
            }
        }
    }

    /** {@code cnCount} CNs as {@link #udp(int, String, int, TransportContext, DispatchContext)}, on loopback ports free now. */
    public static EmbeddedCluster udpLoopback(final int cnCount, final TransportContext transport,
            final DispatchContext dispatch) {
        return udp(cnCount, "127.0.0.1", freeLoopbackPorts(cnCount), transport, dispatch);
    }

    /** A base port whose next {@code count} UDP ports on loopback are free now. */
    static int freeLoopbackPorts(final int count) {
        for (int attempt = 0; attempt < 50; attempt++) {
            final int base = 20_000 + ThreadLocalRandom.current().nextInt(30_000);
            boolean free = true;
            for (int i = 0; i < count && free; i++) {
                try (DatagramSocket socket = new DatagramSocket(base + i, InetAddress.getLoopbackAddress())) {
                    free = socket.isBound();
                } catch (final SocketException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("found no " + count + " free consecutive UDP ports on loopback in 50 tries:"
                + " free some, or give the ports with EmbeddedCluster.udp");
    }

    /** CN {@code cn}. */
    public ComputeNode node(final int cn) {
        return nodes[cn];
    }

    public int cnCount() {
        return nodes.length;
    }

    /** The counters of an exchange summed over every CN's senders. */
    public ExchangeCounters counters(final Exchange exchange) {
        final Topology topology = exchange.topology();
        final ExchangeCounters total = new ExchangeCounters(topology.bucketCount());
        for (final ComputeNode node : nodes) {
            node.counters(exchange).addTo(total);
        }
        return total;
    }

    /** Closes the nodes, then the clients, then the drivers (deleting their directories). */
    @Override
    public void close() {
        try {
            CloseHelper.closeAll(nodes);
        } finally {
            CloseHelper.closeAll(resources);
        }
    }
}
