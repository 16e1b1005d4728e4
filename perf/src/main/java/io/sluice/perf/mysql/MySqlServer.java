package io.sluice.perf.mysql;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The MySQL protocol server of a coordinator: accepts TCP connections on one address and serves each on
 * a thread of its own ({@link MySqlConnection}). Without a cluster secret it takes loopback clients
 * only, any user with an empty password; with one, the users of a {@link MySqlUsers} file. At most
 * {@code maxConnections} clients at once (the coordinator's admission limits: queries running plus
 * queries that may wait), one more is answered ER_CON_COUNT_ERROR; their statements wait in the
 * coordinator's line like any other query.
 */
public final class MySqlServer implements AutoCloseable {
    /** The version clients see: MySQL 8.0's protocol, then Sluice's name (drivers check the MySQL part). */
    public static final String VERSION = "8.0.36-Sluice";
    /** The largest packet a client may send (max_allowed_packet). */
    static final int MAX_PACKET = 4 * 1024 * 1024;

    private final ServerSocket listener;
    private final SqlService service;
    private final MySqlUsers users;
    private final boolean loopbackOnly;
    private final int maxConnections;
    private final Consumer<String> log;
    private final Map<Long, MySqlConnection> connections = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final ExecutorService statementThreads = Executors.newCachedThreadPool(r -> {
        final Thread t = new Thread(r, "mysql-statement");
        t.setDaemon(true);
        return t;
    });
    private final Thread acceptor;
    private volatile boolean closed;

    private MySqlServer(final ServerSocket listener, final SqlService service, final MySqlUsers users,
                        final boolean loopbackOnly, final int maxConnections, final Consumer<String> log) {
        this.listener = listener;
        this.service = service;
        this.users = users;
        this.loopbackOnly = loopbackOnly;
        this.maxConnections = maxConnections;
        this.log = log;
        this.acceptor = new Thread(this::accept, "mysql-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Listens on {@code address} and serves clients until {@link #close}.
     *
     * @param users          who may log in; {@link MySqlUsers#anyWithoutPassword()} without a cluster secret
     * @param maxConnections clients served at once
     * @throws IllegalArgumentException when the server is to take loopback clients only but the address is
     *                                  another host's, or the address cannot be bound, naming it
     */
    public static MySqlServer start(final InetSocketAddress address, final SqlService service, final MySqlUsers users,
                                    final int maxConnections, final Consumer<String> log) {
        final boolean loopbackOnly = !users.listed();
        final InetAddress host = address.getAddress();
        if (loopbackOnly && host != null && !host.isLoopbackAddress() && !host.isAnyLocalAddress()) {
            throw new IllegalArgumentException("cannot serve MySQL clients on " + address.getHostString() + " without"
                    + " a cluster secret: without one only loopback clients with an empty password may connect. Give"
                    + " --secret-file FILE and --mysql-users FILE (a line name:password per user, chmod 600), or use"
                    + " --mysql 127.0.0.1:" + address.getPort());
        }
        final ServerSocket listener;
        try {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(address, 128);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot listen for MySQL clients on " + address.getHostString() + ":"
                    + address.getPort() + ": " + e.getMessage() + "; choose another --mysql address (port 0: any free"
                    + " port)", e);
        }
        final MySqlServer server = new MySqlServer(listener, service, users, loopbackOnly, maxConnections, log);
        server.acceptor.start();
        return server;
    }

    /** The address it listens on, HOST:PORT (the port taken when port 0 was asked for). */
    public String listening() {
        return listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    /** The port it listens on. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Clients connected now. */
    public int connections() {
        return connections.size();
    }

    SqlService service() {
        return service;
    }

    MySqlUsers users() {
        return users;
    }

    String version() {
        return VERSION;
    }

    int maxPacket() {
        return MAX_PACKET;
    }

    private void accept() {
        while (!closed) {
            final Socket socket;
            try {
                socket = listener.accept();
            } catch (final IOException e) {
                if (!closed) {
                    log.accept("mysql server on " + listening() + " stopped accepting: " + e.getMessage());
                }
                return;
            }
            final long id = nextId.getAndIncrement();
            if (loopbackOnly && !socket.getInetAddress().isLoopbackAddress()) {
                refuse(socket, id, ErrorCode.HOST_NOT_ALLOWED, "Host '" + socket.getInetAddress().getHostAddress()
                        + "' is not allowed to connect to this Sluice server: without a cluster secret it takes"
                        + " loopback clients only (start the coordinator with --secret-file and --mysql-users)");
                continue;
            }
            if (connections.size() >= maxConnections) {
                refuse(socket, id, ErrorCode.TOO_MANY_CONNECTIONS, "Too many connections: this server takes "
                        + maxConnections + " (the coordinator's sluice.cluster.max.queries plus"
                        + " sluice.cluster.max.queued)");
                continue;
            }
            final MySqlConnection connection = new MySqlConnection(this, socket, id, statementThreads, log);
            connections.put(id, connection);
            final Thread thread = new Thread(connection, "mysql-connection-" + id);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Answers a connection it will not serve with an ERR packet in place of the greeting, and closes it. */
    private void refuse(final Socket socket, final long id, final ErrorCode code, final String message) {
        log.accept("mysql connection " + id + " from " + socket.getInetAddress().getHostAddress() + " refused: "
                + message);
        try (socket) {
            socket.setSoTimeout(1000);
            final PacketChannel channel = new PacketChannel(socket.getInputStream(), socket.getOutputStream(), MAX_PACKET);
            MySqlConnection.error(channel, new PacketWriter(), code, message);
        } catch (final IOException e) {
            // The client left already.
        }
    }

    /** KILL [QUERY] {@code id}, asked by connection {@code by}. */
    void kill(final long id, final boolean connection, final long by) {
        final MySqlConnection target = connections.get(id);
        if (target == null) {
            throw new MySqlError(ErrorCode.NO_SUCH_CONNECTION, "Unknown thread id: " + id);
        }
        target.cancelStatement("KILL " + (connection ? "" : "QUERY ") + id + " from MySQL connection " + by);
        if (connection && id != by) {
            target.closeSocket();
        }
    }

    void closed(final MySqlConnection connection) {
        connections.remove(connection.id());
    }

    /** Stops accepting, closes every connection (cancelling their statements), then closes the service. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (final IOException e) {
            log.accept("mysql server on port " + listener.getLocalPort() + ": " + e.getMessage());
        }
        for (final MySqlConnection c : connections.values()) {
            c.cancelStatement("the coordinator's MySQL server is stopping");
            c.closeSocket();
        }
        statementThreads.shutdownNow();
        try {
            acceptor.join(5000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            service.close();
        }
    }
}
