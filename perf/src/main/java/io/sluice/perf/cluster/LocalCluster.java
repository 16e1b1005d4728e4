package io.sluice.perf.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Coordinator;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.perf.text.Plural;
import io.sluice.format.spi.Catalog;
import io.sluice.iceberg.IcebergCatalog;
import io.sluice.iceberg.IcebergSource;
import io.sluice.parquet.ParquetCatalog;
import io.sluice.storage.Store;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.agrona.CloseHelper;

/**
 * A cluster on this host: a coordinator in this process (its own media driver, UDP) and N
 * {@code sluice cn} processes, each a JVM with its own driver, receiving on UDP ports of the
 * coordinator's host; their output goes to the log with their names in front. {@link #start}
 * returns once every CN it started has joined; {@link #close} stops the CNs (SIGTERM, then SIGKILL
 * after a few seconds), then the coordinator and its driver. A CN that dies leaves the cluster, as on
 * any host; the others go on. A CN started apart (by hand, or left running from an earlier cluster)
 * may join too: the coordinator names it as started apart, and closing this cluster does not stop it.
 */
public final class LocalCluster implements AutoCloseable {
    /** How long the CNs may take to start and join. */
    private static final long JOIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final EmbeddedDriver driver;
    private final Coordinator coordinator;
    /** The Parquet or Iceberg tables the coordinator plans over, or null over a store. */
    private final AutoCloseable files;
    private final List<Process> cns = new ArrayList<>();
    private final Consumer<String> log;
    private final Path secretFile;
    private final ClusterContext context;

    private LocalCluster(final EmbeddedDriver driver, final Coordinator coordinator, final AutoCloseable files,
            final Consumer<String> log, final Path secretFile, final ClusterContext context) {
        this.driver = driver;
        this.coordinator = coordinator;
        this.files = files;
        this.log = log;
        this.secretFile = secretFile;
        this.context = context;
    }

    /**
     * Starts the coordinator on {@code listen} and {@code cnCount} CN processes of {@code cores} cores each.
     *
     * @param jvmArgs extra JVM arguments of every CN process (e.g. {@code -Xmx512m})
     * @throws IllegalArgumentException when the coordinator cannot listen there, a CN exits, or the CNs do
     *                                  not all join within a minute; nothing is left running then
     */
    public static LocalCluster start(final Path store, final int cnCount, final int cores, final Endpoint listen,
            final List<String> jvmArgs, final TransportContext transport, final Consumer<String> log) {
        return start(store, cnCount, cores, listen, jvmArgs, transport, log, null);
    }

    /**
     * As {@link #start(Path, int, int, Endpoint, List, TransportContext, Consumer)}, every process
     * authenticating with the cluster secret in {@code secretFile} (none when null).
     */
    public static LocalCluster start(final Path store, final int cnCount, final int cores, final Endpoint listen,
            final List<String> jvmArgs, final TransportContext transport, final Consumer<String> log,
            final Path secretFile) {
        return start(Store.open(store), "--store", store.toAbsolutePath().toString(), cnCount, cores, listen, jvmArgs,
                transport, log, secretFile, cn -> List.of());
    }

    /**
     * As {@link #start(Path, int, int, Endpoint, List, TransportContext, Consumer, Path)} over an opened store that
     * every CN opens as {@code storeArgument} (a directory, or {@code s3://BUCKET/PREFIX}), CN {@code i} given the
     * extra arguments {@code cnArguments.apply(i)} (e.g. its own block cache directory).
     */
    public static LocalCluster start(final Store store, final String storeArgument, final int cnCount, final int cores,
            final Endpoint listen, final List<String> jvmArgs, final TransportContext transport,
            final Consumer<String> log, final Path secretFile, final IntFunction<List<String>> cnArguments) {
        return start(store, "--store", storeArgument, cnCount, cores, listen, jvmArgs, transport, log, secretFile,
                cnArguments);
    }

    /**
     * As {@link #start(Path, int, int, Endpoint, List, TransportContext, Consumer, Path)} over the Parquet tables
     * under {@code parquet}, which every CN reads ({@code sluice cn --parquet}) and the coordinator plans from.
     */
    public static LocalCluster startOverParquet(final Path parquet, final int cnCount, final int cores,
            final Endpoint listen, final List<String> jvmArgs, final TransportContext transport,
            final Consumer<String> log, final Path secretFile) {
        final ParquetCatalog catalog = ParquetCatalog.open(parquet);
        return start(null, catalog, catalog::tableNames, catalog, "--parquet", parquet.toAbsolutePath().toString(),
                cnCount, cores, listen, jvmArgs, transport, log, secretFile, cn -> List.of());
    }

    /**
     * As {@link #start(Path, int, int, Endpoint, List, TransportContext, Consumer, Path)} over the Iceberg tables of
     * {@code source} ({@link IcebergSource#FORMS}) in {@code namespace} (null: the catalog's only one), which every CN
     * reads ({@code sluice cn --iceberg}) and the coordinator plans from.
     */
    public static LocalCluster startOverIceberg(final String source, final String namespace, final int cnCount,
            final int cores, final Endpoint listen, final List<String> jvmArgs, final TransportContext transport,
            final Consumer<String> log, final Path secretFile) {
        final String absolute = IcebergSource.absolute(source);
        final IcebergCatalog catalog = IcebergCatalog.open(absolute, namespace);
        final List<String> namespaceArgs = namespace == null ? List.of() : List.of("--iceberg-namespace", namespace);
        return start(null, catalog, catalog::tableNames, catalog, "--iceberg", absolute, cnCount, cores, listen,
                jvmArgs, transport, log, secretFile, cn -> namespaceArgs);
    }

    private static LocalCluster start(final Store store, final String tablesOption, final String tables,
            final int cnCount, final int cores, final Endpoint listen, final List<String> jvmArgs,
            final TransportContext transport, final Consumer<String> log, final Path secretFile,
            final IntFunction<List<String>> cnArguments) {
        return start(store, null, store::tableNames, null, tablesOption, tables, cnCount, cores, listen, jvmArgs,
                transport, log, secretFile, cnArguments);
    }

    /**
     * Starts over a store, or over tables of files ({@code catalog}, closed by {@code files}) that the coordinator
     * plans from and every CN opens as {@code tablesOption tables}.
     */
    private static LocalCluster start(final Store store, final Catalog catalog, final Supplier<List<String>> names,
            final AutoCloseable files, final String tablesOption, final String tables,
            final int cnCount, final int cores, final Endpoint listen, final List<String> jvmArgs,
            final TransportContext transport, final Consumer<String> log, final Path secretFile,
            final IntFunction<List<String>> cnArguments) {
        final ClusterContext context;
        final EmbeddedDriver driver;
        try {
            context = new ClusterContext().secret(secretFile == null ? null : ClusterSecret.read(secretFile));
            driver = EmbeddedDriver.launch(transport);
        } catch (final RuntimeException e) {
            CloseHelper.quietClose(files);
            throw e;
        }
        final Coordinator coordinator;
        try {
            coordinator = Coordinator.udp(driver.aeron(), listen, store, context, driver.context(), log);
            if (catalog != null) {
                coordinator.catalog(catalog);
            }
            coordinator.sqlPlanning(new CoordinatorSql(names::get));
        } catch (final RuntimeException e) {
            CloseHelper.closeAll(driver, files);
            throw new IllegalArgumentException(e.getMessage() + "; choose another --listen, e.g. --listen "
                    + listen.host() + ":0", e);
        }
        final LocalCluster cluster = new LocalCluster(driver, coordinator.start(), files, log, secretFile, context);
        boolean started = false;
        try {
            log.accept("coordinator listening on " + coordinator.listening() + " (" + (store == null ? tablesOption.substring(2) + " " : "store ")
                    + tables + ")");
            for (int i = 0; i < cnCount; i++) {
                cluster.startCn("cn" + i, tablesOption, tables, cores, listen.host(), jvmArgs, cnArguments.apply(i));
            }
            cluster.awaitJoined(cnCount);
            started = true;
            return cluster;
        } finally {
            if (!started) {
                cluster.close();
            }
        }
    }

    private void startCn(final String name, final String tablesOption, final String tables, final int cores,
            final String host, final List<String> jvmArgs, final List<String> extra) {
        final Process p;
        try {
            final List<String> args = new ArrayList<>(List.of("cn", "--coordinator", address(), tablesOption,
                    tables, "--cores", Integer.toString(cores), "--name", name, "--bind", host,
                    "--parent-pid", Long.toString(ProcessHandle.current().pid())));
            args.addAll(extra);
            if (secretFile != null) {
                args.addAll(List.of("--secret-file", secretFile.toAbsolutePath().toString()));
            }
            p = new ProcessBuilder(JavaCommand.sluice(jvmArgs, args)).redirectErrorStream(true).start();
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot start CN process " + name + ": " + e.getMessage(), e);
        }
        cns.add(p);
        coordinator.launching(name, p.pid());
        relay(p, "[" + name + "] ");
        p.onExit().thenRun(() -> log.accept("[" + name + "] exited with " + p.exitValue()));
    }

    /** Waits until every CN this cluster started is alive in the membership; CNs started apart do not count. */
    private void awaitJoined(final int cnCount) {
        final long deadline = System.nanoTime() + JOIN_TIMEOUT_NS;
        while (true) {
            int alive = 0;
            for (final MemberStatus m : coordinator.membership()) {
                alive += m.launched() && m.state() == MemberState.ALIVE ? 1 : 0;
            }
            if (alive == cnCount) {
                return;
            }
            for (final Process p : cns) {
                if (!p.isAlive()) {
                    throw new IllegalArgumentException("CN process " + p.pid() + " exited with " + p.exitValue()
                            + " before it joined; see its output above");
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalArgumentException(alive + " of " + Plural.of(cnCount, "CN") + " joined within "
                        + TimeUnit.NANOSECONDS.toSeconds(JOIN_TIMEOUT_NS) + " s; see their output above");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Prints a child's output lines with its name in front, on a daemon thread. */
    private void relay(final Process p, final String prefix) {
        final Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    log.accept(prefix + line);
                }
            } catch (final IOException e) {
                log.accept(prefix + "(output lost: " + e.getMessage() + ")");
            }
        }, "sluice-relay-" + p.pid());
        t.setDaemon(true);
        t.start();
    }

    /** The Aeron client of the coordinator's media driver, for more clients in this process. */
    public Aeron aeron() {
        return driver.aeron();
    }

    /** The coordinator running in this process. */
    public Coordinator coordinator() {
        return coordinator;
    }

    /** The transport settings of the coordinator's media driver. */
    public TransportContext transport() {
        return driver.context();
    }

    /** HOST:PORT of the coordinator. */
    public String address() {
        return coordinator.listening();
    }

    /** A client session on this cluster; the caller closes it. */
    public Session connect() {
        return Session.connect(Endpoint.parse(address(), false), Session.defaultTransport(), context);
    }

    /** The members the coordinator counts now that this cluster did not start (a CN started by hand). */
    public List<MemberStatus> startedApart() {
        final List<MemberStatus> apart = new ArrayList<>();
        for (final MemberStatus m : coordinator.membership()) {
            if (!m.launched()) {
                apart.add(m);
            }
        }
        return apart;
    }

    /** The CN processes, in start order. */
    public List<Process> cns() {
        return List.copyOf(cns);
    }

    /** Stops every CN (SIGTERM, SIGKILL after 10 s), then the coordinator and its driver. */
    @Override
    public void close() {
        for (final Process p : cns) {
            p.destroy();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (final Process p : cns) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        CloseHelper.closeAll(coordinator, driver, files);
    }
}
