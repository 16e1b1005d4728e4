package io.sluice.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A UDP host and port a cluster process listens on ({@code --listen}, {@code --bind}) or talks to
 * ({@code --coordinator}), and the Aeron channels for it. Port 0 asks the system for a free port
 * (resolved once the subscription is bound).
 */
public record Endpoint(String host, int port) {
    public Endpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("an endpoint needs a host: write HOST:PORT, e.g. 127.0.0.1:7400");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " of " + host + " is not valid: use 1..65535"
                    + " (or 0 for any free port)");
        }
    }

    /**
     * Parses {@code HOST:PORT} ({@code [v6]:PORT} for IPv6), or {@code HOST} alone when {@code portOptional}
     * (port 0). The error shows the expected form.
     */
    public static Endpoint parse(final String text, final boolean portOptional) {
        final String t = text == null ? "" : text.trim();
        final int colon = t.startsWith("[") ? t.indexOf("]:") + 1 : t.lastIndexOf(':');
        if (colon <= 0) {
            if (portOptional && !t.isEmpty() && t.indexOf(':') < 0) {
                return new Endpoint(t, 0);
            }
            throw new IllegalArgumentException("'" + text + "' is not HOST:PORT, e.g. 127.0.0.1:7400");
        }
        final String host = t.substring(0, colon);
        final String port = t.substring(colon + 1);
        try {
            return new Endpoint(host, Integer.parseInt(port));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no port number after the ':': write HOST:PORT,"
                    + " e.g. 127.0.0.1:7400");
        }
    }

    /** The host's address; the error names the host. */
    public InetAddress address() {
        try {
            return InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (final UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "': give an IP address or a name this"
                    + " machine resolves", e);
        }
    }

    /** This endpoint with another port. */
    public Endpoint withPort(final int newPort) {
        return new Endpoint(host, newPort);
    }

    /** {@code aeron:udp?endpoint=host:port}: where a process subscribes, and where others publish to it. */
    public String channel() {
        return "aeron:udp?endpoint=" + host + ":" + port;
    }

    /**
     * The local address this machine would use to reach {@code remote}: the address to listen on, and
     * to tell the remote side, when none was given. Asks the routing table (a UDP socket connected,
     * nothing sent).
     */
    public static String localAddressToward(final Endpoint remote) {
        final InetAddress target = remote.address();
        if (target.isLoopbackAddress()) {
            return target.getHostAddress();
        }
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(target, remote.port() == 0 ? 9 : remote.port()));
            final InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new IllegalArgumentException("this machine has no route to " + remote.host()
                        + ": give the address to listen on with --bind");
            }
            return local.getHostAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find a local address toward " + remote.host() + ": " + e.getMessage()
                    + "; give the address to listen on with --bind", e);
        }
    }

    /**
     * The channel to publish on toward a process that subscribed to {@code channel}: the same, with the
     * MTU the transport chooses for the target host ({@link TransportContext#mtuLengthFor}); IPC as is.
     */
    public static String publicationChannel(final String channel, final TransportContext transport) {
        final String prefix = "aeron:udp?endpoint=";
        if (!channel.startsWith(prefix)) {
            return channel;
        }
        final String rest = channel.substring(prefix.length());
        final int bar = rest.indexOf('|');
        final Endpoint target = parse(bar < 0 ? rest : rest.substring(0, bar), false);
        final int mtu = transport.mtuLengthFor(target.address());
        return channel + "|mtu=" + mtu;
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
