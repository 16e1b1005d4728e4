package io.sluice.perf.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * A UDP echo server for multi-host tests: binds the address given, prints its pid and where it listens, and sends
 * every datagram back to its sender, printing what it echoed to whom, until its stdin ends.
 *
 * <p>Usage: {@code UdpEchoMain <address>}. Its stdin ends when the test JVM closes it or dies, so a killed test
 * leaves no echo server behind.
 */
public final class UdpEchoMain {
    /** The line prefix before this process's pid. */
    public static final String PID = "pid ";
    /** The line prefix before {@code address:port} once the socket is bound. */
    public static final String LISTENING = "listening ";
    /** The line prefix before {@code <payload> from <sender address>} for every datagram echoed. */
    public static final String ECHOED = "echoed ";

    private UdpEchoMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: UdpEchoMain <address to bind>");
            System.exit(2);
        }
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(args[0]), 0))) {
            closeWhenStdinEnds(socket);
            System.out.println(PID + ProcessHandle.current().pid());
            System.out.println(LISTENING + socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort());
            final byte[] buffer = new byte[65_536];
            while (true) {
                final DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (final SocketException closed) {
                    if (socket.isClosed()) {
                        return;
                    }
                    throw closed;
                }
                socket.send(new DatagramPacket(packet.getData(), packet.getOffset(), packet.getLength(),
                        packet.getSocketAddress()));
                System.out.println(ECHOED + new String(packet.getData(), packet.getOffset(), packet.getLength(),
                        StandardCharsets.UTF_8) + " from " + packet.getAddress().getHostAddress());
            }
        }
    }

    private static void closeWhenStdinEnds(final DatagramSocket socket) {
        final Thread watcher = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // Input is not expected; only its end matters.
                }
            } catch (final IOException e) {
                System.err.println("stdin failed, stopping: " + e);
            }
            socket.close();
        }, "stdin watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
