package io.sluice.perf.cluster;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends a datagram to a {@link UdpEchoMain} and prints the reply: {@code reply <payload> from <address>:<port>}.
 *
 * <p>Usage: {@code UdpEchoClientMain <address> <port> <payload>}; exits with 1 when no reply comes within
 * {@link #TIMEOUT}.
 */
public final class UdpEchoClientMain {
    /** The line prefix before the reply's payload and sender. */
    public static final String REPLY = "reply ";
    /** How long to keep asking for a reply. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final int RESEND_MS = 200;

    private UdpEchoClientMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: UdpEchoClientMain <address> <port> <payload>");
            System.exit(2);
        }
        final InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        try {
            System.out.println(exchange(server, args[2], TIMEOUT));
        } catch (final SocketTimeoutException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Sends {@code payload} to {@code server}, again every {@value #RESEND_MS} ms while no reply has come, and returns
     * {@code reply <payload> from <address>:<port>} for the first reply.
     *
     * @throws SocketTimeoutException naming the server when no reply came within {@code timeout}
     */
    public static String exchange(final InetSocketAddress server, final String payload, final Duration timeout)
            throws IOException {
        final byte[] sent = payload.getBytes(StandardCharsets.UTF_8);
        final long deadline = System.nanoTime() + timeout.toNanos();
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(RESEND_MS);
            final byte[] buffer = new byte[65_536];
            while (System.nanoTime() - deadline < 0) {
                socket.send(new DatagramPacket(sent, sent.length, server));
                final DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(reply);
                } catch (final SocketTimeoutException noReplyYet) {
                    continue;
                }
                return REPLY + new String(reply.getData(), reply.getOffset(), reply.getLength(), StandardCharsets.UTF_8)
                        + " from " + reply.getAddress().getHostAddress() + ":" + reply.getPort();
            }
        }
        throw new SocketTimeoutException("no reply from the UDP echo server at " + server + " within "
                + timeout.toMillis() + " ms; is it running and reachable from here?");
    }
}
