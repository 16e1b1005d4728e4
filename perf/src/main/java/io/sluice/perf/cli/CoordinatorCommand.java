package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Coordinator;
import io.sluice.perf.cluster.CoordinatorSql;
import io.sluice.format.StorageException;
import io.sluice.perf.metrics.CoordinatorMetrics;
import io.sluice.perf.metrics.MetricsServer;
import io.sluice.perf.mysql.MySqlServer;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.agrona.CloseHelper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice coordinator}: the process that keeps a cluster's membership and runs its queries. */
@Command(name = "coordinator", mixinStandardHelpOptions = true,
        description = {"Runs a cluster's coordinator: compute nodes (sluice cn) register with it, clients (sluice query"
            + " --coordinator, sluice cluster status) send it queries. It plans each query for the CNs alive when it"
            + " arrives, ships the plan to them and returns the answer; the data goes CN to CN.",
            "Runs until SIGTERM or SIGINT, then tells its CNs, stops its media driver and removes its /dev/shm"
                + " directory."},
        footer = {"", "Examples:", "  sluice coordinator --listen 127.0.0.1:7400 --store data/sf1",
            "  sluice coordinator --listen 10.0.0.1:7400 --store /shared/sf1 --secret-file ~/.sluice-secret",
            "  sluice coordinator --listen 127.0.0.1:7400 --store data/sf1 --mysql 127.0.0.1:3306"})
public final class CoordinatorCommand extends CliCommand {
    @Option(names = "--listen", required = true, paramLabel = "HOST:PORT",
            description = "UDP address to listen on (port 0: any free port; the one taken is printed).")
    String listen;

    @Option(names = "--store", paramLabel = "DIR",
            description = "The store every CN reads (shared or copied to every host, or s3://BUCKET/PREFIX on object"
                + " storage); queries are planned from it.")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: the folder of Parquet files"
            + " every CN reads (sluice cn --parquet; see docs/parquet.md); a query naming a table it lacks fails on"
            + " the CNs.")
    Path parquet;

    @Mixin
    IcebergOptions iceberg;

    @Mixin
    SecretOption secret;

    @Mixin
    MySqlOptions mysql;

    @Mixin
    MetricsOption metrics;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws InterruptedException {
        final Endpoint endpoint = Endpoint.parse(listen, false);
        endpoint.address();
        if (store != null && !ObjectStoreOptions.isObjectStorage(store) && !Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: create one with sluice gen --sf 1 --out "
                    + store);
        }
        // The coordinator plans every query from these tables: the store's, or the Parquet or Iceberg tables the CNs
        // read.
        final TableSource tables = TableSource.open(store, parquet, iceberg);
        final ClusterContext context;
        final EmbeddedDriver driver;
        try {
            context = secret.context();
            mysql.check(context);
            metrics.check();
            driver = EmbeddedDriver.launch(ClusterProcess.transport());
        } catch (final RuntimeException e) {
            tables.close();
            throw e;
        }
        final Coordinator coordinator;
        try {
            coordinator = Coordinator.udp(driver.aeron(), endpoint, tables.store(), context, driver.context(),
                    ClusterProcess.log(out)).catalog(tables.catalog()).sqlPlanning(new CoordinatorSql(
                            tables.store() != null ? tables.store()::tableNames : tables::names));
        } catch (final RuntimeException e) {
            CloseHelper.closeAll(driver, tables);
            throw e;
        }
        final MetricsServer metricsServer;
        try {
            metricsServer = metrics.start(ClusterProcess.log(out));
        } catch (final RuntimeException e) {
            CloseHelper.closeAll(coordinator, driver, tables);
            throw e;
        }
        if (metricsServer != null) {
            CoordinatorMetrics.register(metricsServer.registry(), coordinator);
        }
        coordinator.start();
        final MySqlServer server;
        try {
            server = mysql.start(store, parquet, iceberg, driver.aeron(), coordinator.listening(), context,
                    driver.context(),
                    ClusterProcess.log(out));
        } catch (final RuntimeException e) {
            CloseHelper.closeAll(metricsServer, coordinator, driver, tables);
            throw e;
        }
        if (server != null && metricsServer != null) {
            CoordinatorMetrics.registerMySqlConnections(metricsServer.registry(), server::connections);
        }
        final UntilStopped until = new UntilStopped(() -> CloseHelper.closeAll(server, metricsServer, coordinator,
                driver, tables));
        out.println("coordinator listening on " + coordinator.listening() + " (" + (store != null ? "store " + ObjectStoreOptions.describe(store)
                : tables.where()) + "; "
                + SecretOption.describe(context) + ")");
        out.flush();
        until.await(new CompletableFuture<>());
        return 0;
    }
}
