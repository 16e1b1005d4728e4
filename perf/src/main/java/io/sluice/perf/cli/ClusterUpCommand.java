package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.format.StorageException;
import io.sluice.perf.cluster.LocalCluster;
import io.sluice.perf.metrics.CoordinatorMetrics;
import io.sluice.perf.metrics.MetricsServer;
import io.sluice.perf.mysql.MySqlServer;
import io.sluice.perf.text.Plural;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice cluster up}: a coordinator in this process and N CN processes on this host, for trying
 * a real cluster on one machine; everything stops together on SIGINT or SIGTERM.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Starts a coordinator in this process and N CN processes (each its own JVM and Aeron media"
            + " driver, UDP on loopback) over one store, prints the coordinator's address once every CN has joined,"
            + " and runs until SIGINT (CTRL-C) or SIGTERM, then stops the CNs and itself. Each CN's output is"
            + " printed with its name in front; a CN that dies leaves the cluster and the rest go on.",
            "A CN started apart (sluice cn by hand, or one left running from an earlier cluster) may join too: it is"
                + " named when it joins and in cluster status, and CTRL-C here does not stop it."},
        footer = {"", "Example (then, in another terminal: sluice query --coordinator 127.0.0.1:7400 --tpch 18):",
            "  sluice cluster up --cn 3 --cores 2 --store data/sf0.1",
            "  sluice cluster up --cn 3 --cores 2 --store data/sf0.1 --mysql 127.0.0.1:3306 --metrics 127.0.0.1:9400"})
public final class ClusterUpCommand extends CliCommand {
    @Option(names = "--cn", required = true, paramLabel = "N", description = "CN processes to start.")
    int cnCount;

    @Option(names = "--cores", required = true, paramLabel = "K", description = "Worker threads of each CN.")
    int cores;

    @Option(names = "--store", paramLabel = "DIR", description = "The store every CN reads: a directory, or"
            + " s3://BUCKET/PREFIX on object storage (each CN then caches blocks in --cache-dir/cnI).")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: the folder of Parquet files"
            + " every CN reads (see docs/parquet.md); or --iceberg, the Iceberg tables every CN reads.")
    Path parquet;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7400",
            description = "The coordinator's UDP address (default: ${DEFAULT-VALUE}; port 0 takes any free port).")
    String listen;

    @Option(names = "--jvm-arg", paramLabel = "ARG",
            description = "A JVM argument for every CN process, e.g. --jvm-arg=-Xmx512m (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    @Mixin
    IcebergOptions iceberg;

    @Mixin
    SecretOption secret;

    @Mixin
    MySqlOptions mysql;

    @Mixin
    MetricsOption metrics;

    @Mixin
    ObjectStoreOptions objectStore;

    /** CN {@code i}'s block cache over object storage: its own directory under --cache-dir, and --cache-size. */
    private List<String> cacheArguments(final int cn) {
        final List<String> args = new ArrayList<>(List.of("--cache-size", Long.toString(objectStore.cacheSize)));
        if (objectStore.cacheDir != null) {
            args.addAll(List.of("--cache-dir", objectStore.cacheDir.toAbsolutePath().resolve("cn" + cn).toString()));
        }
        return args;
    }

    /** The line naming the CNs in the cluster that it did not start, and what CTRL-C here leaves running. */
    static String startedApart(final List<MemberStatus> apart) {
        final List<String> named = new ArrayList<>();
        for (final MemberStatus m : apart) {
            named.add(m.name() + " (pid " + m.pid() + " at " + m.endpoint() + ")");
        }
        return "cluster up: the cluster also has " + Plural.of(apart.size(), "CN") + " started apart (by hand, or left"
                + " from an earlier cluster), which CTRL-C here does not stop: " + String.join(", ", named);
    }

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws InterruptedException {
        if (cnCount < 1 || cnCount > 64) {
            throw new IllegalArgumentException("--cn must be 1..64 on one host, got " + cnCount);
        }
        if (cores < 1) {
            throw new IllegalArgumentException("--cores must be 1 or more, got " + cores);
        }
        final Endpoint endpoint = Endpoint.parse(listen, false);
        endpoint.address();
        final boolean objectStorage = ObjectStoreOptions.isObjectStorage(store);
        if (store != null && !objectStorage && !Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: create one with sluice gen --sf 0.1 --out "
                    + store);
        }
        if (objectStorage && (parquet != null || iceberg.given())) {
            throw new IllegalArgumentException("give one of " + TableSource.SOURCES + ", not several");
        }
        if (!objectStorage) {
            TableSource.open(store, parquet, iceberg).close();
        }
        // Over object storage the coordinator plans from the store's manifests; each CN caches the blocks it reads.
        final ObjectStoreOptions.Opened opened = objectStorage ? new ObjectStoreOptions().open(store) : null;
        final Consumer<String> log = ClusterProcess.log(out);
        final ClusterContext context = secret.context();
        mysql.check(context);
        metrics.check();
        final LocalCluster cluster;
        try {
            cluster = parquet != null
                    ? LocalCluster.startOverParquet(parquet, cnCount, cores, endpoint, jvmArgs,
                            ClusterProcess.transport(), log, secret.file())
                    : iceberg.given()
                    ? LocalCluster.startOverIceberg(iceberg.iceberg, iceberg.namespace, cnCount, cores, endpoint,
                            jvmArgs, ClusterProcess.transport(), log, secret.file())
                    : objectStorage
                    ? LocalCluster.start(opened.store(), ObjectStoreOptions.describe(store), cnCount, cores, endpoint,
                            jvmArgs, ClusterProcess.transport(), log, secret.file(), this::cacheArguments)
                    : LocalCluster.start(store, cnCount, cores, endpoint, jvmArgs, ClusterProcess.transport(), log,
                            secret.file());
        } catch (final RuntimeException e) {
            CloseHelper.quietClose(opened);
            throw e;
        }
        final MySqlServer server;
        final MetricsServer metricsServer;
        try {
            server = mysql.start(store, parquet, iceberg, cluster.aeron(), cluster.address(), context,
                    cluster.transport(), log);
            try {
                metricsServer = metrics.start(log);
            } catch (final RuntimeException e) {
                CloseHelper.quietClose(server);
                throw e;
            }
        } catch (final RuntimeException e) {
            CloseHelper.closeAll(cluster, opened);
            throw e;
        }
        if (metricsServer != null) {
            CoordinatorMetrics.register(metricsServer.registry(), cluster.coordinator());
            if (server != null) {
                CoordinatorMetrics.registerMySqlConnections(metricsServer.registry(), server::connections);
            }
        }
        final String secretArg = secret.file() == null ? "" : " --secret-file " + secret.file();
        final UntilStopped until = new UntilStopped(() -> CloseHelper.closeAll(server, metricsServer, cluster, opened));
        log.accept("cluster up: " + Plural.of(cnCount, "CN") + " x " + Plural.of(cores, "core") + ", coordinator "
                + cluster.address() + "; " + SecretOption.describe(context) + "; try: sluice query --coordinator " + cluster.address() + secretArg
                + (parquet != null ? " --parquet " + parquet : "")
                + (iceberg.given() ? " " + String.join(" ", iceberg.args()) : "") + " --tpch 1; stop with CTRL-C");
        final List<MemberStatus> apart = cluster.startedApart();
        if (!apart.isEmpty()) {
            log.accept(startedApart(apart));
        }
        until.await(new CompletableFuture<>());
        return 0;
    }
}
