package io.sluice.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * Asks a silent peer's host whether the peer's process still exists: rings its {@link Doorbell} from
 * a connected UDP socket, on which the host's answer to a closed port (ICMP port unreachable) comes
 * back as an error. A process that was killed closed its doorbell, so its host says so at once; a
 * stopped or busy one keeps its port open and the probe learns nothing, nor does it when the host
 * itself is gone or a firewall drops the answer (then only silence tells).
 */
public final class DoorbellProbe implements AutoCloseable {
    private final DatagramChannel channel;
    private final ByteBuffer ring = ByteBuffer.allocateDirect(1);
    private final ByteBuffer answer = ByteBuffer.allocateDirect(16);

    /** A probe of the doorbell at {@code host:port}. */
    public DoorbellProbe(final String host, final int port) {
        try {
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
            channel.connect(new InetSocketAddress(new Endpoint(host, port).address(), port));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open a UDP socket toward " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Rings once more and reports whether an earlier ring (or this one) was answered with "port closed".
     * Call it every few hundred milliseconds while the peer is silent.
     */
    public boolean gone() {
        try {
            answer.clear();
            channel.read(answer);
            ring.clear();
            channel.write(ring);
            return false;
        } catch (final PortUnreachableException e) {
            return true;
        } catch (final IOException e) {
            // Any other error (no route, a full buffer) says nothing about the peer's process.
            return false;
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close a doorbell probe: " + e.getMessage(), e);
        }
    }
}
