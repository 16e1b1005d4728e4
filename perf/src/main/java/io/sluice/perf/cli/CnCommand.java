package io.sluice.perf.cli;

import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.CnServer;
import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.perf.metrics.CnMetrics;
import io.sluice.perf.metrics.MetricsServer;
import io.sluice.format.StorageException;
import io.sluice.perf.text.Plural;
import io.sluice.s3.S3Store;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.agrona.CloseHelper;
import org.roaringbitmap.RoaringBitmap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice cn}: a compute node process that joins a coordinator and runs its queries. */
@Command(name = "cn", mixinStandardHelpOptions = true,
        description = {"Runs a compute node: starts its own Aeron media driver, registers with the coordinator,"
            + " and serves queries (its share of the scans, its buckets of every shuffle) over the store every CN"
            + " shares, exchanging batches with the other CNs directly over UDP.",
            "Prints 'cn NAME joined' once the coordinator took it in. Runs until SIGTERM or SIGINT (then it leaves"
                + " the cluster), or until the coordinator refuses it (exit 1). When its coordinator stops or"
                + " restarts it waits and joins again."},
        footer = {"", "Example:", "  sluice cn --coordinator 127.0.0.1:7400 --store data/sf1 --cores 2 --name cn1"})
public final class CnCommand extends CliCommand {
    @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT", description = "The coordinator to join.")
    String coordinator;

    @Option(names = "--store", paramLabel = "DIR",
            description = "The store the coordinator and every CN share (or a copy of it on this host), or"
                + " s3://BUCKET/PREFIX on object storage, whose blocks this CN caches in --cache-dir.")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: the folder of Parquet files"
            + " every CN reads (shared or copied), each NAME.parquet file or NAME/ folder the table NAME"
            + " (see docs/parquet.md).")
    Path parquet;

    @Option(names = "--cores", required = true, paramLabel = "K", description = "Worker threads this CN offers per query.")
    int cores;

    @Option(names = "--bind", paramLabel = "HOST[:PORT]",
            description = "UDP address to receive on (default: this host's address toward the coordinator, any free"
                + " port).")
    String bind;

    @Option(names = "--name", paramLabel = "NAME", description = "A name unique in the cluster (default: host-pid).")
    String name;

    @Mixin
    IcebergOptions iceberg;

    @Mixin
    SecretOption secret;

    @Option(names = "--parent-pid", paramLabel = "PID", hidden = true,
            description = "Stop when this process ends (sluice cluster up starts its CNs so).")
    Long parentPid;

    @Mixin
    MetricsOption metrics;

    @Mixin
    ObjectStoreOptions objectStore;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws InterruptedException {
        metrics.check();
        if (cores < 1) {
            throw new IllegalArgumentException("--cores must be 1 or more, got " + cores);
        }
        final Endpoint coordinatorAt = Endpoint.parse(coordinator, false);
        coordinatorAt.address();
        final Endpoint bindTo = bind == null ? new Endpoint(Endpoint.localAddressToward(coordinatorAt), 0)
                : Endpoint.parse(bind, true);
        if (store != null && !ObjectStoreOptions.isObjectStorage(store) && !Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: every CN reads the coordinator's store;"
                    + " give its directory (shared or copied) with --store");
        }
        final String cnName = name != null ? name : defaultName();
        final ClusterContext context = secret.context();
        final TableSource tables = TableSource.open(store, parquet, iceberg,
                "every CN must read the same store as the coordinator",
                objectStore);
        if (tables.opened() != null && tables.opened().reads() != null) {
            context.storageReads(tables.opened().reads());
        }
        if (tables.opened() != null && tables.opened().s3() != null) {
            final S3Store s3 = tables.opened().s3();
            context.blockCaches(() -> cacheReport(s3));
        }
        final EmbeddedDriver driver = EmbeddedDriver.launch(ClusterProcess.transport());
        final CnServer server;
        try {
            server = CnServer.udp(driver.aeron(), bindTo, coordinatorAt, cnName, cores, tables.catalog(), context,
                    driver.context(), new DispatchContext(), ClusterProcess.log(out));
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(driver, tables);
            throw e;
        }
        final MetricsServer metricsServer;
        try {
            metricsServer = metrics.start(ClusterProcess.log(out));
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(server, driver, tables);
            throw e;
        }
        if (metricsServer != null) {
            CnMetrics.register(metricsServer.registry(), server);
        }
        final UntilStopped until = new UntilStopped(() -> CloseHelper.closeAll(server, metricsServer, driver, tables));
        final CompletableFuture<String> ended = new CompletableFuture<>();
        server.rejected().thenAccept(reason -> ended.complete(reason.startsWith("authentication failed") ? "CN " + cnName
                + ": " + reason : reason));
        if (parentPid != null) {
            ProcessHandle.of(parentPid).ifPresentOrElse(
                    parent -> parent.onExit().thenRun(() -> ended.complete(null)), () -> ended.complete(null));
        }
        server.start();
        out.println("cn " + cnName + " receiving on " + server.control().channel().replace("aeron:udp?endpoint=", "")
                + " with " + Plural.of(cores, "core") + ", joining the coordinator at " + coordinatorAt + " ("
                + SecretOption.describe(context) + ")");
        out.flush();
        final String refusal = until.await(ended);
        if (refusal != null) {
            return fail(err, refusal);
        }
        return 0;
    }

    private static String defaultName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            host = "cn";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /** What the block cache holds of each table of the store, for the coordinator to place scans by. */
    private static List<CachedBlocks> cacheReport(final S3Store s3) {
        final List<CachedBlocks> report = new ArrayList<>();
        for (final Map.Entry<String, BitSet> t : s3.cachedBlocks().entrySet()) {
            final RoaringBitmap blocks = new RoaringBitmap();
            final BitSet cached = t.getValue();
            for (int b = cached.nextSetBit(0); b >= 0; b = cached.nextSetBit(b + 1)) {
                blocks.add(b);
            }
            blocks.runOptimize();
            report.add(new CachedBlocks(0, t.getKey(), blocks));
        }
        return report;
    }
}
