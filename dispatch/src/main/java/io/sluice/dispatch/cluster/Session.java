package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.control.ControlMessage.CnUsage;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;

/**
 * The library's way to run plans on a cluster, through its coordinator: {@link #connect} to one that
 * runs elsewhere ({@code sluice coordinator} and {@code sluice cn} processes), or start an embedded
 * cluster in this JVM with the constructors, for tests and benchmarks: the same {@link Coordinator}
 * and {@link CnServer}s, each CN with its own data plane and workers, over {@code aeron:ipc} through one
 * media driver or over {@code aeron:udp} on loopback with a driver per CN ({@link Network}). Either
 * way the plan is shipped, every CN compiles its own fragments, batches go CN to CN, and the result
 * comes back through the coordinator.
 *
 * <p>{@link #topology(Topology)} sets the shape of the next queries: an embedded cluster starts or
 * stops CNs to match (nothing stored moves: every CN reads the same store); a connected session asks
 * the coordinator for that many CNs with that many cores. Several threads may run queries, and ask
 * for the status, on one session at once.
 */
public final class Session implements AutoCloseable {
    /**
     * Term length of the cluster's Aeron publications unless {@code sluice.transport.term.length} is
     * set: 4 MiB, so a frame carries up to 512 KiB (most 8192-row batches whole) while the n x (n - 1)
     * publications of n CNs stay small (3 terms each).
     */
    public static final int TERM_LENGTH_DEFAULT = 4 * 1024 * 1024;
    /** How long a topology change waits for the CNs to join or leave. */
    private static final long MEMBERSHIP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    /** How the CNs of the embedded cluster reach each other. */
    public enum Network {
        /** One shared media driver, {@code aeron:ipc} between CNs: the default. */
        IPC,
        /** A media driver per CN, {@code aeron:udp} on loopback ports: the path CNs on other hosts take. */
        UDP;

        /** Parses {@code ipc} or {@code udp}; the error names both. */
        public static Network parse(final String text) {
            for (final Network n : values()) {
                if (n.name().equalsIgnoreCase(text.trim())) {
                    return n;
                }
            }
            throw new IllegalArgumentException("network '" + text + "' is not one of ipc, udp");
        }
    }

    /**
     * One query's answer, the strategy of each join and group-by, its plan (when asked for, {@link ExplainText}; else
     * null), what moved where, each CN's memory.
     *
     * @param columns the result's column names to show: as SQL names them for SQL text (two may share one, {@code
     *                SELECT a.x, b.x}, while the result's own row type keeps them unique, {@code x}, {@code x0}), the
     *                row type's for a plan
     */
    public record Execution(QueryResult result, List<String> columns, List<Decision> decisions, String explain,
                            QueryStats stats, List<CnUsage> usage) {
    }

    private final Catalog tables;
    /** The catalog this session opened and closes; null when the caller owns {@link #tables}. */
    private final StoreCatalog ownedTables;
    private final Network network;
    private final TransportContext transport;
    private final DispatchContext dispatch;
    private final ClusterContext cluster;
    /** The drivers this session started: the coordinator's first, then one per UDP CN. */
    private final List<EmbeddedDriver> drivers = new ArrayList<>();
    private final List<CnServer> cns = new ArrayList<>();
    private final List<EmbeddedDriver> cnDrivers = new ArrayList<>();
    private Coordinator coordinator;
    private ClusterClient client;
    private Topology topology;
    private int cnCount;
    private int cores;

    /** An embedded cluster of the given shape over a store, with the default transport and dispatch settings. */
    public Session(final Store store, final Topology topology) {
        this(store, topology, Network.IPC);
    }

    /** As {@link #Session(Store, Topology)}, the CNs reaching each other over {@code network}. */
    public Session(final Store store, final Topology topology, final Network network) {
        this(store, topology, network, defaultTransport(), new DispatchContext());
    }

    /** An embedded cluster with the given transport and dispatch settings. */
    public Session(final Store store, final Topology topology, final Network network, final TransportContext transport,
            final DispatchContext dispatch) {
        this(store, topology, network, transport, dispatch, new ClusterContext());
    }

    /**
     * An embedded cluster with the given transport, dispatch and control-plane settings: with a cluster
     * secret in {@code cluster}, its processes authenticate and its CNs seal the frames they send each other.
     */
    public Session(final Store store, final Topology topology, final Network network, final TransportContext transport,
            final DispatchContext dispatch, final ClusterContext cluster) {
        this(new StoreCatalog(store, "every CN must read the same store as the coordinator"), store, topology, network,
                transport, dispatch, cluster);
    }

    /**
     * An embedded cluster whose CNs read the tables of {@code tables}, a catalog the caller owns and closes after
     * this session (Parquet files, storage of its own): the same coordinator and CNs as over a store, over
     * {@code network} with the default transport and dispatch settings.
     */
    public Session(final Catalog tables, final Topology topology, final Network network) {
        this(tables, null, topology, network, defaultTransport(), new DispatchContext(), new ClusterContext());
    }

    private Session(final Catalog tables, final Store store, final Topology topology, final Network network,
            final TransportContext transport, final DispatchContext dispatch, final ClusterContext cluster) {
        this.tables = tables;
        this.ownedTables = store == null ? null : (StoreCatalog) tables;
        this.network = network;
        this.transport = transport;
        this.dispatch = dispatch;
        this.cluster = cluster.validate();
        boolean started = false;
        try {
            final EmbeddedDriver driver = EmbeddedDriver.launch(transport);
            drivers.add(driver);
            final Aeron aeron = driver.aeron();
            if (network == Network.IPC) {
                coordinator = Coordinator.ipc(aeron, store, cluster, transport, line -> { }).catalog(tables).start();
                client = ClusterClient.ipc(aeron, 0, coordinator.control(), cluster, transport);
            } else {
                coordinator = Coordinator.udp(aeron, new Endpoint("127.0.0.1", 0), store, cluster, transport,
                        line -> { }).catalog(tables).start();
                client = ClusterClient.udp(aeron, Endpoint.parse(coordinator.listening(), false), cluster, transport);
            }
            topology(topology);
            started = true;
        } finally {
            if (!started) {
                close();
            }
        }
    }

    private Session(final EmbeddedDriver driver, final ClusterClient client, final ClusterContext cluster) {
        this.tables = null;
        this.ownedTables = null;
        this.network = Network.UDP;
        this.transport = driver.context();
        this.dispatch = null;
        this.cluster = cluster;
        this.drivers.add(driver);
        this.client = client;
    }

    /**
     * A session on the cluster whose coordinator listens at {@code coordinator}; queries run on every CN
     * alive with the cores the CN with the fewest offers, until {@link #topology(Topology)} asks otherwise.
     *
     * @throws io.sluice.dispatch.control.ControlLinkException when nothing receives at that address within the
     *                                                         connect timeout, naming it and what to do
     */
    public static Session connect(final Endpoint coordinator) {
        return connect(coordinator, defaultTransport(), new ClusterContext());
    }

    /** As {@link #connect(Endpoint)}, with the given transport and control-plane settings. */
    public static Session connect(final Endpoint coordinator, final TransportContext transport,
            final ClusterContext cluster) {
        final EmbeddedDriver driver = EmbeddedDriver.launch(transport);
        try {
            final ClusterClient client = ClusterClient.udp(driver.aeron(), coordinator, cluster.validate(), transport);
            try {
                client.awaitReachable();
            } catch (final RuntimeException e) {
                client.close();
                throw e;
            }
            return new Session(driver, client, cluster);
        } catch (final RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** The transport settings of a cluster process: the defaults, with {@link #TERM_LENGTH_DEFAULT} unless a term length is set. */
    public static TransportContext defaultTransport() {
        final TransportContext context = new TransportContext();
        return System.getProperty(TransportContext.TERM_LENGTH_PROP_NAME) == null
                ? context.termLength(TERM_LENGTH_DEFAULT) : context;
    }

    /** The embedded cluster's coordinator, for its counters; null on a connected session. */
    Coordinator coordinator() {
        return coordinator;
    }

    /** The shape the next queries run on: null on a connected session that asks for every CN. */
    public synchronized Topology topology() {
        return topology;
    }

    /**
     * The shape of the next queries. An embedded cluster starts or stops CNs to have that many, and
     * returns once the coordinator counts them all; a connected session asks for that many CNs (an error
     * at the next query when fewer are alive) with that many cores each.
     */
    public synchronized void topology(final Topology next) {
        if (coordinator != null) {
            resize(next.cnCount());
        }
        topology = next;
        cnCount = next.cnCount();
        cores = next.coresPerCn();
    }

    private void resize(final int count) {
        while (cns.size() > count) {
            final int last = cns.size() - 1;
            cns.remove(last).close();
            if (!cnDrivers.isEmpty()) {
                cnDrivers.remove(last).close();
            }
        }
        while (cns.size() < count) {
            final int slot = cns.size();
            final String name = "cn" + slot;
            final CnServer cn;
            if (network == Network.IPC) {
                cn = CnServer.ipc(drivers.get(0).aeron(), slot, coordinator.control(), name, Topology.MAX_CORES_PER_CN,
                        tables, cluster, transport, dispatch, line -> { });
            } else {
                final EmbeddedDriver driver = EmbeddedDriver.launch(transport);
                cnDrivers.add(driver);
                cn = CnServer.udp(driver.aeron(), new Endpoint("127.0.0.1", 0),
                        Endpoint.parse(coordinator.listening(), false), name, Topology.MAX_CORES_PER_CN, tables, cluster,
                        transport, dispatch, line -> { });
            }
            // Both ends live in this JVM: neither takes the other's silence for death (see Coordinator#inProcess).
            coordinator.inProcess(cn);
            cns.add(cn.coordinatorInProcess().start());
        }
        awaitMembership();
    }

    /** Waits until the coordinator's members are exactly this session's CNs. */
    private void awaitMembership() {
        final Set<String> expected = new HashSet<>();
        for (final CnServer cn : cns) {
            expected.add(cn.name());
        }
        final long deadline = System.nanoTime() + MEMBERSHIP_TIMEOUT_NS;
        while (true) {
            final Set<String> members = new HashSet<>();
            for (final MemberStatus m : coordinator.membership()) {
                members.add(m.name());
            }
            boolean joined = members.equals(expected);
            for (final CnServer cn : cns) {
                joined &= cn.isMember();
            }
            if (joined) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the embedded cluster did not reach " + expected.size() + " CNs within "
                        + TimeUnit.NANOSECONDS.toSeconds(MEMBERSHIP_TIMEOUT_NS) + " s: the coordinator counts "
                        + members);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * The shape of the next queries on a connected session: {@code cnCount} CNs (0: every CN alive) with
     * {@code cores} cores each (0: as many as the CN with the fewest offers).
     */
    public synchronized void shape(final int cnCount, final int cores) {
        if (coordinator != null) {
            topology(new Topology(cnCount, cores));
            return;
        }
        if (cnCount < 0 || cores < 0) {
            throw new IllegalArgumentException("CNs and cores must be 0 (the default) or more, got " + cnCount + " CNs, "
                    + cores + " cores");
        }
        this.cnCount = cnCount;
        this.cores = cores;
        this.topology = cnCount > 0 && cores > 0 ? new Topology(cnCount, cores) : null;
    }

    /**
     * Runs a plan with the given strategy on the session's shape.
     *
     * @throws QueryFailedException when the query fails on a CN or the coordinator refuses it
     */
    public Execution execute(final String name, final Plan plan, final StrategyConfig config) {
        return execute(name, plan, config, 0);
    }

    /**
     * As {@link #execute(String, Plan, StrategyConfig)}, failing with error type {@code TimeoutException}
     * once the query has taken {@code timeoutMillis} (0: no limit), its wait for a place included.
     */
    public Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final long timeoutMillis) {
        return execute(name, plan, config, timeoutMillis, ExplainText.NONE);
    }

    /**
     * As {@link #execute(String, Plan, StrategyConfig, long)}; with {@link ExplainText#RENDERED} the answer's
     * {@link Execution#explain()} is the distributed plan as CN 0 compiled it (else null, and no CN renders it).
     */
    public Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final long timeoutMillis, final ExplainText explain) {
        final int cnsAskedFor;
        final int coresAskedFor;
        synchronized (this) {
            cnsAskedFor = cnCount;
            coresAskedFor = cores;
        }
        return client.execute(name, plan, config, cnsAskedFor, coresAskedFor, timeoutMillis, explain);
    }

    /**
     * Runs a SQL statement on the session's shape: the coordinator plans it from its store and decides it, so
     * a session {@link #connect connected} without a store can run SQL. The answer's {@link Execution#columns} name
     * the result's columns as SQL does.
     *
     * @throws QueryFailedException when the statement does not plan, the query fails on a CN or the coordinator
     *                              refuses it
     */
    public Execution executeSql(final String name, final String sql, final StrategyConfig config,
            final long timeoutMillis) {
        return executeSql(name, sql, config, timeoutMillis, ExplainText.NONE);
    }

    /** As {@link #executeSql(String, String, StrategyConfig, long)}, with the plan's EXPLAIN text when asked. */
    public Execution executeSql(final String name, final String sql, final StrategyConfig config,
            final long timeoutMillis, final ExplainText explain) {
        final int cnsAskedFor;
        final int coresAskedFor;
        synchronized (this) {
            cnsAskedFor = cnCount;
            coresAskedFor = cores;
        }
        return client.executeSql(name, sql, config, cnsAskedFor, coresAskedFor, timeoutMillis, explain);
    }

    /**
     * Stops every query of this session still running or waiting, on every CN (from another thread,
     * or a shutdown hook); each of their callers gets a {@link QueryFailedException} of type
     * {@code QueryCancelledException}.
     */
    public void cancelAll(final String reason) {
        client.cancelAll(reason);
    }

    /** The cluster's members as the coordinator sees them now; also while a query of this session runs. */
    public List<MemberStatus> status() {
        return client.status();
    }

    /** The members and the coordinator's own counts (queries running and waiting, messages refused). */
    public Status clusterStatus() {
        return client.clusterStatus();
    }

    /** Stops the embedded CNs and coordinator (or leaves the remote cluster alone) and closes the drivers. */
    @Override
    public synchronized void close() {
        try {
            CloseHelper.quietClose(client);
            for (int i = cns.size() - 1; i >= 0; i--) {
                CloseHelper.quietClose(cns.get(i));
            }
            cns.clear();
            CloseHelper.quietClose(coordinator);
        } finally {
            CloseHelper.quietCloseAll(cnDrivers);
            cnDrivers.clear();
            CloseHelper.quietCloseAll(drivers);
            drivers.clear();
            CloseHelper.quietClose(ownedTables);
        }
    }
}
