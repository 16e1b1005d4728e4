package io.sluice.perf.mysql;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.engine.expr.DataType;
import io.sluice.format.Schema;
import io.sluice.sql.SqlException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * One client connection, on a thread of its own: the handshake, then a loop reading a command and
 * answering it (COM_QUERY, COM_STMT_PREPARE/EXECUTE/CLOSE/RESET, COM_INIT_DB, COM_PING, COM_FIELD_LIST,
 * COM_RESET_CONNECTION, COM_QUIT).
 * A statement for the cluster runs on another thread while this one watches the socket: a client that
 * disconnects has its statement cancelled on every CN. A packet that breaks the protocol closes this
 * connection and nothing else.
 */
final class MySqlConnection implements Runnable {
    private static final int COM_QUIT = 0x01;
    private static final int COM_INIT_DB = 0x02;
    private static final int COM_QUERY = 0x03;
    private static final int COM_FIELD_LIST = 0x04;
    private static final int COM_PING = 0x0E;
    private static final int COM_STMT_PREPARE = 0x16;
    private static final int COM_STMT_EXECUTE = 0x17;
    private static final int COM_STMT_SEND_LONG_DATA = 0x18;
    private static final int COM_STMT_CLOSE = 0x19;
    private static final int COM_STMT_RESET = 0x1A;
    /** MySQL's default max_prepared_stmt_count, here per connection. */
    private static final int MAX_PREPARED = 16382;
    private static final int COM_RESET_CONNECTION = 0x1F;
    /** How long a client may take to log in (MySQL's connect_timeout): a silent one does not hold its thread. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** How often the watching thread looks whether the statement finished while the client stays silent. */
    private static final int WATCH_MILLIS = 100;

    private final MySqlServer server;
    private final Socket socket;
    private final long id;
    private final Consumer<String> log;
    private final ExecutorService statementThreads;
    private final PacketWriter packet = new PacketWriter();
    private final PreparedStatements prepared = new PreparedStatements(MAX_PREPARED);
    private volatile SqlService.Statements statements;
    private String database;

    MySqlConnection(final MySqlServer server, final Socket socket, final long id, final ExecutorService statementThreads,
                    final Consumer<String> log) {
        this.server = server;
        this.socket = socket;
        this.id = id;
        this.statementThreads = statementThreads;
        this.log = log;
    }

    long id() {
        return id;
    }

    String host() {
        return socket.getInetAddress().getHostAddress();
    }

    @Override
    public void run() {
        try (socket) {
            socket.setTcpNoDelay(true);
            final BufferedInputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            final PacketChannel channel = new PacketChannel(in,
                    new BufferedOutputStream(socket.getOutputStream(), 64 * 1024), server.maxPacket());
            final Handshake.Login login;
            socket.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
            try {
                login = Handshake.run(channel, id, server.version(), server.users(), host());
            } catch (final MySqlError refused) {
                log.accept("mysql connection " + id + " from " + host() + " refused: " + refused.getMessage());
                return;
            } catch (final SocketTimeoutException silent) {
                log.accept("mysql connection " + id + " from " + host() + " closed: it did not log in within "
                        + CONNECT_TIMEOUT_MILLIS + " ms");
                return;
            }
            socket.setSoTimeout(0);
            database = login.database();
            statements = server.service().open("mysql-" + id + "-" + login.user() + "@" + host());
            final SessionStatements session = new SessionStatements(server.service(),
                    new SessionVariables(server.version(), id, server.maxPacket()), login.user(), id);
            commands(channel, in, session);
        } catch (final ProtocolException e) {
            log.accept("mysql connection " + id + " from " + host() + " closed: " + e.getMessage());
        } catch (final IOException e) {
            // The client went away (or was killed): nothing to answer.
        } finally {
            final SqlService.Statements s = statements;
            if (s != null) {
                s.close();
            }
            server.closed(this);
        }
    }

    private void commands(final PacketChannel channel, final InputStream in, final SessionStatements session)
            throws IOException {
        while (true) {
            channel.resetSequence();
            final byte[] command = channel.read();
            if (command == null) {
                return;
            }
            if (command.length == 0) {
                throw new ProtocolException("an empty command packet");
            }
            final PacketReader reader = new PacketReader(command);
            final int code = reader.int1("command");
            switch (code) {
                case COM_QUIT -> {
                    return;
                }
                case COM_PING, COM_RESET_CONNECTION -> ok(channel, packet);
                case COM_STMT_PREPARE -> prepare(channel, new String(reader.rest(), StandardCharsets.UTF_8));
                case COM_STMT_EXECUTE -> {
                    if (!execute(channel, in, session, reader)) {
                        return;
                    }
                }
                case COM_STMT_CLOSE -> prepared.close(reader.int4("statement id"));
                case COM_STMT_RESET -> answer(channel, () -> prepared.get(reader.int4("statement id")).longData = false);
                case COM_STMT_SEND_LONG_DATA -> {
                    // No answer is due: the statement's next execution fails, saying why.
                    try {
                        prepared.get(reader.int4("statement id")).longData = true;
                    } catch (final MySqlError unknown) {
                        // Nothing to mark: executing an unknown statement fails anyway.
                    }
                }
                case COM_INIT_DB -> answer(channel, () -> use(new String(reader.rest(), StandardCharsets.UTF_8)));
                case COM_FIELD_LIST -> fieldList(channel, reader.nulString("table"));
                case COM_QUERY -> {
                    if (!query(channel, in, session, new String(reader.rest(), StandardCharsets.UTF_8))) {
                        return;
                    }
                }
                default -> error(channel, packet, ErrorCode.UNKNOWN_COMMAND, "command 0x" + Integer.toHexString(code)
                        + " is not supported: send SQL with COM_QUERY or COM_STMT_PREPARE/COM_STMT_EXECUTE");
            }
        }
    }

    /** An action that answers a command or fails with a {@link MySqlError}. */
    private interface Answer {
        void run() throws IOException;
    }

    private void answer(final PacketChannel channel, final Answer answer) throws IOException {
        try {
            answer.run();
            ok(channel, packet);
        } catch (final MySqlError e) {
            error(channel, packet, e.code(), e.getMessage());
        }
    }

    private void use(final String name) {
        final String db = name.strip().replace("`", "");
        if (!db.equalsIgnoreCase(SqlService.DATABASE)) {
            throw SessionStatements.unknownDatabase(db);
        }
        database = SqlService.DATABASE;
    }

    private void fieldList(final PacketChannel channel, final String table) throws IOException {
        final Schema schema = server.service().columns(table);
        if (schema == null) {
            error(channel, packet, ErrorCode.NO_SUCH_TABLE, "Table '" + SqlService.DATABASE + "." + table
                    + "' doesn't exist");
            return;
        }
        final List<DataType> types = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            types.add(DataType.of(schema.type(c)));
        }
        new ResultSetWriter(channel, false).fieldList(table, schema.names(), types);
    }

    /** Answers COM_STMT_PREPARE: the statement's id and its parameters; its columns are known once it runs. */
    private void prepare(final PacketChannel channel, final String sql) throws IOException {
        final PreparedStatements.Prepared p;
        try {
            p = prepared.prepare(sql);
        } catch (final MySqlError e) {
            error(channel, packet, e.code(), e.getMessage());
            return;
        }
        channel.write(packet.reset().int1(0x00).int4(p.id).int2(0).int2(p.parameters).int1(0).int2(0));
        if (p.parameters > 0) {
            final ResultSetWriter writer = new ResultSetWriter(channel, true);
            for (int i = 0; i < p.parameters; i++) {
                writer.parameterDefinition();
            }
            writer.eof();
        }
        channel.flush();
    }

    /** Answers COM_STMT_EXECUTE with a binary result set; false when the client went away meanwhile. */
    private boolean execute(final PacketChannel channel, final InputStream in, final SessionStatements session,
                            final PacketReader reader) throws IOException {
        final String sql;
        try {
            final PreparedStatements.Prepared p = prepared.get(reader.int4("statement id"));
            reader.int1("flags");
            reader.int4("iteration count");
            if (p.longData) {
                throw new MySqlError(ErrorCode.NOT_SUPPORTED, "parameters sent as long data (COM_STMT_SEND_LONG_DATA)"
                        + " are not supported: bind them as values");
            }
            sql = PreparedStatements.bind(p, reader);
        } catch (final MySqlError e) {
            error(channel, packet, e.code(), e.getMessage());
            return true;
        }
        return query(channel, in, session, sql, true);
    }

    /** Answers COM_QUERY; false when the client went away while its statement ran. */
    private boolean query(final PacketChannel channel, final InputStream in, final SessionStatements session,
                          final String text) throws IOException {
        return query(channel, in, session, text, false);
    }

    /** Answers a statement with a text or binary result set; false when the client went away while it ran. */
    private boolean query(final PacketChannel channel, final InputStream in, final SessionStatements session,
                          final String text, final boolean binary) throws IOException {
        final String sql = SessionStatements.strip(text);
        if (sql.isEmpty()) {
            error(channel, packet, ErrorCode.EMPTY_QUERY, "Query was empty");
            return true;
        }
        final SessionStatements.Reply reply;
        try {
            reply = session.answer(sql, database);
        } catch (final MySqlError e) {
            error(channel, packet, e.code(), e.getMessage());
            return true;
        }
        if (reply instanceof SessionStatements.Ok) {
            ok(channel, packet);
        } else if (reply instanceof SessionStatements.Rows rows) {
            new ResultSetWriter(channel, binary).write(rows.result());
        } else if (reply instanceof SessionStatements.Use use) {
            answer(channel, () -> use(use.database()));
        } else if (reply instanceof SessionStatements.Kill kill) {
            answer(channel, () -> server.kill(kill.id(), kill.connection(), id));
        } else {
            return run(channel, in, sql, session.settings(), binary);
        }
        return true;
    }

    /** Runs a statement on the cluster, watching the socket meanwhile; false when the client went away. */
    private boolean run(final PacketChannel channel, final InputStream in, final String sql, final RunSettings settings,
                        final boolean binary) throws IOException {
        final SqlService.Statements s = statements;
        final Future<StatementResult> running = statementThreads.submit(() -> s.execute(sql, settings));
        final boolean alive = watch(in, running, s);
        final StatementResult result;
        try {
            result = running.get();
        } catch (final ExecutionException e) {
            if (!alive) {
                return false;
            }
            final Throwable cause = e.getCause();
            error(channel, packet, code(cause), cause.getMessage() == null ? cause.toString() : cause.getMessage());
            return true;
        } catch (final InterruptedException e) {
            s.cancel("the server is stopping");
            Thread.currentThread().interrupt();
            return false;
        }
        if (!alive) {
            return false;
        }
        new ResultSetWriter(channel, binary).write(result);
        return true;
    }

    /**
     * Waits for a statement while watching for the client to disconnect; cancels it if the client does.
     *
     * @return whether the client is still there
     */
    private boolean watch(final InputStream in, final Future<?> running, final SqlService.Statements s)
            throws IOException {
        socket.setSoTimeout(WATCH_MILLIS);
        try {
            while (!running.isDone()) {
                in.mark(1);
                try {
                    final int next = in.read();
                    if (next < 0) {
                        s.cancel("its MySQL client (connection " + id + " from " + host() + ") disconnected");
                        return false;
                    }
                    // The client sent something already (it pipelines): it is there; the byte is read again later.
                    in.reset();
                    return true;
                } catch (final SocketTimeoutException e) {
                    // Still silent: look again whether the statement finished.
                }
            }
            return true;
        } catch (final IOException e) {
            s.cancel("its MySQL client (connection " + id + " from " + host() + ") disconnected: " + e.getMessage());
            return false;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    /** Cancels the statement running now on this connection, if any (KILL QUERY). */
    void cancelStatement(final String reason) {
        final SqlService.Statements s = statements;
        if (s != null) {
            s.cancel(reason);
        }
    }

    /** Closes the socket (KILL CONNECTION, server stop): the connection's thread ends. */
    void closeSocket() {
        try {
            socket.close();
        } catch (final IOException e) {
            // Closing twice or a socket already reset: nothing more to do.
        }
    }

    private static ErrorCode code(final Throwable failure) {
        if (failure instanceof SqlException e) {
            return switch (e.kind()) {
                case SYNTAX -> ErrorCode.PARSE_ERROR;
                case UNSUPPORTED -> ErrorCode.NOT_SUPPORTED;
                case VALIDATION -> e.detail().startsWith("table ") && e.detail().contains("does not exist")
                        ? ErrorCode.NO_SUCH_TABLE
                        : e.detail().contains("has no column ") || e.detail().startsWith("column ")
                        ? ErrorCode.BAD_FIELD : ErrorCode.UNKNOWN;
            };
        }
        if (failure instanceof QueryFailedException q && q.errorType().contains("Cancel")) {
            return ErrorCode.QUERY_INTERRUPTED;
        }
        return ErrorCode.UNKNOWN;
    }

    /** Writes an OK packet: no rows affected, autocommit on. */
    static void ok(final PacketChannel channel, final PacketWriter packet) throws IOException {
        channel.write(packet.reset().int1(0x00).lenenc(0).lenenc(0).int2(ResultSetWriter.STATUS_AUTOCOMMIT).int2(0));
        channel.flush();
    }

    /** Writes an ERR packet with its code, SQL state and message. */
    static void error(final PacketChannel channel, final PacketWriter packet, final ErrorCode code,
                      final String message) throws IOException {
        channel.write(packet.reset().int1(0xFF).int2(code.code()).int1('#')
                .bytes(code.sqlState().getBytes(StandardCharsets.US_ASCII))
                .bytes(message.getBytes(StandardCharsets.UTF_8)));
        channel.flush();
    }
}
