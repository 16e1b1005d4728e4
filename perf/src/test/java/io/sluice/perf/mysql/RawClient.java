package io.sluice.perf.mysql;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * A MySQL client written from the protocol, for what real drivers never send: another auth method
 * first, packets cut short, too large or random. It reads packets with the server's own framing.
 */
final class RawClient implements AutoCloseable {
    final Socket socket;
    final PacketChannel channel;
    private byte[] scramble;

    RawClient(final int port) throws IOException {
        this(InetAddress.getLoopbackAddress(), port);
    }

    RawClient(final InetAddress from, final int port) throws IOException {
        this(from, InetAddress.getLoopbackAddress(), port);
    }

    RawClient(final InetAddress from, final InetAddress to, final int port) throws IOException {
        socket = new Socket();
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(new InetSocketAddress(to, port), 10_000);
        socket.setSoTimeout(60_000);
        channel = new PacketChannel(socket.getInputStream(), socket.getOutputStream(), 1 << 24);
    }

    /** Reads the greeting and keeps its scramble; returns the whole packet. */
    byte[] greeting() throws IOException {
        final byte[] g = channel.read();
        if ((g[0] & 0xFF) == 0xFF) {
            return g;
        }
        final PacketReader r = new PacketReader(g);
        r.int1("protocol");
        r.nulString("version");
        r.int4("id");
        final byte[] first = r.bytes(8, "scramble 1");
        r.skip(1 + 2 + 1 + 2 + 2 + 1 + 10, "flags");
        final byte[] second = r.bytes(12, "scramble 2");
        scramble = new byte[20];
        System.arraycopy(first, 0, scramble, 0, 8);
        System.arraycopy(second, 0, scramble, 8, 12);
        return g;
    }

    byte[] scramble() {
        return scramble;
    }

    /** Sends a HandshakeResponse41 naming {@code plugin}, with {@code answer} as its auth data. */
    void respond(final String user, final byte[] answer, final String plugin) throws IOException {
        final PacketWriter w = new PacketWriter().int4(Handshake.CLIENT_PROTOCOL_41 | Handshake.CLIENT_SECURE_CONNECTION
                | Handshake.CLIENT_PLUGIN_AUTH | Handshake.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)
                .int4(1 << 24).int1(45).zeros(23).nulString(user).lenencBytes(answer, 0, answer.length)
                .nulString(plugin);
        channel.write(w);
        channel.flush();
    }

    /** Logs in with the native method as {@code user} with an empty password; fails unless the server says OK. */
    RawClient login(final String user) throws IOException {
        greeting();
        respond(user, new byte[0], NativePassword.PLUGIN);
        final byte[] reply = channel.read();
        if (reply[0] != 0) {
            throw new IllegalStateException("login refused: " + text(reply));
        }
        return this;
    }

    /** Sends COM_QUERY. */
    void query(final String sql) throws IOException {
        channel.resetSequence();
        channel.write(new PacketWriter().int1(0x03).bytes(sql.getBytes(StandardCharsets.UTF_8)));
        channel.flush();
    }

    byte[] read() throws IOException {
        return channel.read();
    }

    static String text(final byte[] packet) {
        return new String(packet, StandardCharsets.UTF_8);
    }

    /** An ERR packet's code. */
    static int errorCode(final byte[] packet) {
        return (packet[1] & 0xFF) | (packet[2] & 0xFF) << 8;
    }

    /** Whether the server has closed the connection: a read ends (or the connection resets) before any byte. */
    boolean closedByServer() throws IOException {
        try {
            return socket.getInputStream().read() < 0;
        } catch (final SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
