package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Coordinator;
import io.sluice.perf.cluster.CoordinatorSql;
import io.sluice.format.StorageException;
import io.sluice.storage.Store;
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
            "  sluice coordinator --listen 10.0.0.1:7400 --store /shared/sf1 --secret-file ~/.sluice-secret"})
public final class CoordinatorCommand extends CliCommand {
    @Option(names = "--listen", required = true, paramLabel = "HOST:PORT",
            description = "UDP address to listen on (port 0: any free port; the one taken is printed).")
    String listen;

    @Option(names = "--store", required = true, paramLabel = "DIR",
            description = "The store every CN reads (shared or copied to every host); queries are checked against it.")
    Path store;

    @Mixin
    SecretOption secret;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws InterruptedException {
        final Endpoint endpoint = Endpoint.parse(listen, false);
        endpoint.address();
        if (!Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: create one with sluice gen --sf 1 --out "
                    + store);
        }
        final Store s = Store.open(store);
        final ClusterContext context = secret.context();
        final EmbeddedDriver driver = EmbeddedDriver.launch(ClusterProcess.transport());
        final Coordinator coordinator;
        try {
            coordinator = Coordinator.udp(driver.aeron(), endpoint, s, context, driver.context(),
                    ClusterProcess.log(out)).sqlPlanning(new CoordinatorSql());
        } catch (final RuntimeException e) {
            driver.close();
            throw e;
        }
        final UntilStopped until = new UntilStopped(() -> CloseHelper.closeAll(coordinator, driver));
        coordinator.start();
        out.println("coordinator listening on " + coordinator.listening() + " (store " + store + "; "
                + SecretOption.describe(context) + ")");
        out.flush();
        until.await(new CompletableFuture<>());
        return 0;
    }
}
