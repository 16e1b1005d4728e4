package io.sluice.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * Rings other processes' {@link Doorbell}s: one datagram of one byte each, sent without waiting. A
 * ring that cannot be sent is counted and otherwise ignored: the message that follows it still
 * arrives, only after the receiver's park. Thread-safe: query threads ring as well as control loops.
 */
public final class DoorbellRinger implements AutoCloseable {
    private final DatagramChannel channel;
    private final ByteBuffer ring = ByteBuffer.allocateDirect(1);
    private long failed;

    public DoorbellRinger() {
        try {
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open a UDP socket to ring doorbells: " + e.getMessage(), e);
        }
    }

    /** Rings the doorbell at {@code host:port}; port 0 (a peer without one) rings nothing. */
    public synchronized void ring(final String host, final int port) {
        if (port <= 0) {
            return;
        }
        try {
            ring.clear();
            channel.send(ring, new InetSocketAddress(new Endpoint(host, port).address(), port));
        } catch (final IOException | IllegalArgumentException e) {
            failed++;
        }
    }

    /** Rings that could not be sent. */
    public synchronized long failed() {
        return failed;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close the doorbell ringer: " + e.getMessage(), e);
        }
    }
}
