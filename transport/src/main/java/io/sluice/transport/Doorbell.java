package io.sluice.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP port that wakes this process when any datagram reaches it: a peer rings it when it sends a
 * message on a query's critical path (a client its query, the coordinator a CN its plan, a CN its
 * results), so the process's idle threads ({@link ProcessActivity#wake}) pick the message up at once
 * instead of at the end of their park: up to a millisecond when active, the long quiet park otherwise.
 *
 * <p>One thread blocks in {@code receive} and costs nothing while nobody rings. A ring carries no data
 * and is never trusted: a forged one costs a wake-up, nothing else, and a lost one only the park.
 */
public final class Doorbell implements AutoCloseable {
    private final DatagramChannel channel;
    private final int port;
    private final Thread listener;
    private final AtomicLong rings = new AtomicLong();

    private Doorbell(final DatagramChannel channel, final ProcessActivity activity, final String name)
            throws IOException {
        this.channel = channel;
        this.port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        this.listener = new Thread(() -> listen(activity), "sluice-doorbell-" + name);
        this.listener.setDaemon(true);
        this.listener.start();
    }

    /**
     * A doorbell on a free UDP port of {@code host} (the host a process's control endpoint listens on)
     * waking {@code activity}.
     *
     * @throws UncheckedIOException when no port can be bound there
     */
    public static Doorbell open(final String host, final ProcessActivity activity, final String name) {
        final Endpoint bind = new Endpoint(host, 0);
        DatagramChannel channel = null;
        try {
            channel = DatagramChannel.open(bind.address() instanceof java.net.Inet6Address
                    ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            channel.bind(new InetSocketAddress(bind.address(), 0));
            return new Doorbell(channel, activity, name);
        } catch (final IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (final IOException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw new UncheckedIOException("cannot open a doorbell (a UDP port) on " + host + ": " + e.getMessage(), e);
        }
    }

    private void listen(final ProcessActivity activity) {
        final ByteBuffer buffer = ByteBuffer.allocate(16);
        while (channel.isOpen()) {
            try {
                buffer.clear();
                channel.receive(buffer);
                rings.incrementAndGet();
                activity.wake();
            } catch (final ClosedChannelException e) {
                return;
            } catch (final IOException e) {
                // A receive error (an ICMP report of an earlier send, say) says nothing about this port: go on.
                continue;
            }
        }
    }

    /** The UDP port to ring. */
    public int port() {
        return port;
    }

    /** How many rings arrived. */
    public long rings() {
        return rings.get();
    }

    @Override
    public void close() {
        try {
            channel.close();
            listener.join();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close the doorbell on port " + port + ": " + e.getMessage(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
