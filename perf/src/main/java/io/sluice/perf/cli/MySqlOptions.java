package io.sluice.perf.cli;

import io.aeron.Aeron;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.mysql.MySqlServer;
import io.sluice.perf.mysql.MySqlUsers;
import io.sluice.perf.mysql.SqlService;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * {@code --mysql HOST:PORT} and {@code --mysql-users FILE} of {@code sluice coordinator} and {@code sluice
 * cluster up}: the MySQL protocol server the coordinator process runs beside its cluster.
 */
final class MySqlOptions {
    @Option(names = "--mysql", paramLabel = "HOST:PORT",
            description = "Also serve MySQL clients (mysql, mariadb, JDBC, Python) on this TCP address (port 0: any free"
                + " port; the one taken is printed): one database, sluice, holding the store's tables; each statement"
                + " runs on the cluster. Without a cluster secret: loopback clients only, any user with an empty"
                + " password.")
    String mysql;

    @Option(names = "--mysql-users", paramLabel = "FILE",
            description = "With a cluster secret, who may log in over --mysql: a line name:password (or name:*HEX, MySQL's"
                + " SHA1(SHA1(password)) form) per user, in a file only its owner may read (chmod 600).")
    Path users;

    /** Checks the options before anything starts. */
    void check(final ClusterContext context) {
        if (mysql == null) {
            if (users != null) {
                throw new IllegalArgumentException("--mysql-users is for the MySQL server: add --mysql HOST:PORT");
            }
            return;
        }
        address();
        if (context.secret() == null && users != null) {
            throw new IllegalArgumentException("--mysql-users needs a cluster secret (--secret-file FILE): without"
                    + " one the MySQL server takes loopback clients with an empty password only; drop --mysql-users");
        }
        if (context.secret() != null && users == null) {
            throw new IllegalArgumentException("--mysql with a cluster secret needs --mysql-users FILE (a line"
                    + " name:password per user, chmod 600), so that only those users may log in");
        }
        if (users != null) {
            MySqlUsers.read(users);
        }
    }

    private InetSocketAddress address() {
        final Endpoint e = Endpoint.parse(mysql, false);
        return new InetSocketAddress(e.address(), e.port());
    }

    /**
     * Starts the MySQL server when --mysql was given (else returns null), its statements planned over
     * {@code store} (or the Parquet or Iceberg tables given instead) and run on the coordinator
     * at {@code coordinator} through {@code aeron}.
     */
    MySqlServer start(final Path store, final Path parquet, final IcebergOptions iceberg, final Aeron aeron,
                      final String coordinator, final ClusterContext context, final TransportContext transport,
                      final Consumer<String> log) {
        if (mysql == null) {
            return null;
        }
        final ClusterSqlService service = new ClusterSqlService(TableSource.open(store, parquet, iceberg), aeron,
                Endpoint.parse(coordinator, false), context, transport, StrategyConfig.defaults());
        try {
            final MySqlServer server = MySqlServer.start(address(),
                    service, users == null ? MySqlUsers.anyWithoutPassword() : MySqlUsers.read(users),
                    context.maxQueries() + context.maxQueued(), log);
            log.accept("mysql listening on " + server.listening() + " (database " + SqlService.DATABASE
                    + "; " + (users == null ? "loopback clients, any user with an empty password" : "users of " + users)
                    + "; try: mariadb -h " + host(server) + " -P " + server.port() + " -u sluice sluice)");
            return server;
        } catch (final RuntimeException e) {
            service.close();
            throw e;
        }
    }

    private static String host(final MySqlServer server) {
        final String h = server.listening().substring(0, server.listening().lastIndexOf(':'));
        return "0.0.0.0".equals(h) ? "127.0.0.1" : h;
    }
}
