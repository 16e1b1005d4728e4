package io.sluice.perf.mysql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The connection phase: the server's greeting (protocol v10, a fresh scramble, {@code mysql_native_password}),
 * the client's HandshakeResponse41, an AuthSwitchRequest when the client answered for another method
 * (MySQL 8 clients start with {@code caching_sha2_password}), and the check of user, password and
 * database. No TLS is offered: clients that require it are refused by their own driver.
 */
final class Handshake {
    static final int CLIENT_LONG_PASSWORD = 1;
    static final int CLIENT_FOUND_ROWS = 1 << 1;
    static final int CLIENT_LONG_FLAG = 1 << 2;
    static final int CLIENT_CONNECT_WITH_DB = 1 << 3;
    static final int CLIENT_PROTOCOL_41 = 1 << 9;
    static final int CLIENT_SSL = 1 << 11;
    static final int CLIENT_TRANSACTIONS = 1 << 13;
    static final int CLIENT_SECURE_CONNECTION = 1 << 15;
    static final int CLIENT_MULTI_RESULTS = 1 << 17;
    static final int CLIENT_PS_MULTI_RESULTS = 1 << 18;
    static final int CLIENT_PLUGIN_AUTH = 1 << 19;
    static final int CLIENT_CONNECT_ATTRS = 1 << 20;
    static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
    /** What this server offers. */
    static final int SERVER_CAPABILITIES = CLIENT_LONG_PASSWORD | CLIENT_FOUND_ROWS | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_RESULTS | CLIENT_PS_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_CONNECT_ATTRS
            | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;

    /**
     * Who logged in.
     *
     * @param user     the user name
     * @param database the database named at connect, or null
     */
    record Login(String user, String database) {
    }

    private Handshake() {
    }

    /**
     * Runs the connection phase to its end: an OK packet for a client that logged in, else an ERR packet and a
     * {@link MySqlError}.
     *
     * @throws ProtocolException when the client's packets do not follow the protocol
     */
    static Login run(final PacketChannel channel, final long connectionId, final String serverVersion,
                     final MySqlUsers users, final String host) throws IOException {
        final byte[] scramble = NativePassword.scramble();
        final PacketWriter greeting = new PacketWriter().int1(10).nulString(serverVersion).int4(connectionId)
                .bytes(scramble, 0, 8).int1(0).int2(SERVER_CAPABILITIES & 0xFFFF).int1(MySqlType.UTF8MB4)
                .int2(ResultSetWriter.STATUS_AUTOCOMMIT).int2(SERVER_CAPABILITIES >>> 16)
                .int1(NativePassword.SCRAMBLE_LENGTH + 1).zeros(10).bytes(scramble, 8, 12).int1(0)
                .nulString(NativePassword.PLUGIN);
        channel.write(greeting);
        channel.flush();
        final PacketReader response = new PacketReader(PacketChannel.require(channel.read(), "its handshake response"));
        final int capabilities = (int) response.int4("capability flags");
        if ((capabilities & CLIENT_PROTOCOL_41) == 0) {
            throw refuse(channel, ErrorCode.BAD_HANDSHAKE, "this server speaks the 4.1 protocol only (CLIENT_PROTOCOL_41)");
        }
        response.int4("max packet size");
        response.int1("character set");
        response.skip(23, "filler");
        if (response.remaining() == 0 && (capabilities & CLIENT_SSL) != 0) {
            throw refuse(channel, ErrorCode.BAD_HANDSHAKE, "this server offers no TLS: connect without it (e.g."
                    + " --ssl=0, sslMode=DISABLED)");
        }
        final String user = response.nulString("user name");
        byte[] answer;
        if ((capabilities & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            answer = response.lenencBytes("auth response");
        } else if ((capabilities & CLIENT_SECURE_CONNECTION) != 0) {
            answer = response.bytes(response.int1("auth response length"), "auth response");
        } else {
            answer = response.nulString("auth response").getBytes(StandardCharsets.UTF_8);
        }
        String database = null;
        if ((capabilities & CLIENT_CONNECT_WITH_DB) != 0 && response.remaining() > 0) {
            database = response.nulString("database");
            if (database.isEmpty()) {
                database = null;
            }
        }
        String plugin = NativePassword.PLUGIN;
        if ((capabilities & CLIENT_PLUGIN_AUTH) != 0 && response.remaining() > 0) {
            plugin = response.nulString("auth plugin name");
        }
        if (!plugin.equals(NativePassword.PLUGIN)) {
            channel.write(new PacketWriter().int1(0xFE).nulString(NativePassword.PLUGIN).bytes(scramble).int1(0));
            channel.flush();
            answer = PacketChannel.require(channel.read(), "its answer to the switch to " + NativePassword.PLUGIN);
        }
        // Some clients end the scramble answer with the NUL the scramble was sent with.
        if (answer.length == NativePassword.SCRAMBLE_LENGTH + 1 && answer[NativePassword.SCRAMBLE_LENGTH] == 0) {
            answer = Arrays.copyOf(answer, NativePassword.SCRAMBLE_LENGTH);
        }
        if (!users.exists(user) || !NativePassword.verify(answer, scramble, users.stored(user))) {
            throw refuse(channel, ErrorCode.ACCESS_DENIED, "Access denied for user '" + user + "'@'" + host
                    + "' (using password: " + (answer.length == 0 ? "NO" : "YES") + ")" + (users.listed() ? ""
                    : ": without a cluster secret this server takes any user with an empty password"));
        }
        if (database != null && !database.equalsIgnoreCase(SqlService.DATABASE)) {
            throw refuse(channel, ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + database + "': the one database"
                    + " is '" + SqlService.DATABASE + "'");
        }
        MySqlConnection.ok(channel, new PacketWriter());
        return new Login(user, database == null ? null : SqlService.DATABASE);
    }

    private static MySqlError refuse(final PacketChannel channel, final ErrorCode code, final String message)
            throws IOException {
        MySqlConnection.error(channel, new PacketWriter(), code, message);
        return new MySqlError(code, message);
    }
}
