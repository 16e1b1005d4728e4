package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.dispatch.control.ControlAuthentication;
import io.sluice.dispatch.control.StorageReads;
import io.sluice.transport.ClusterSecret;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.agrona.SystemUtil;

/**
 * Settings of the cluster's control plane, each with a documented default overridable by a
 * {@code sluice.cluster.*} system property or a fluent setter: how often heartbeats go, when a silent
 * CN is suspect and when dead, how long the coordinator waits for CNs to prepare a query, how long a
 * client waits without hearing from its coordinator, how soon a client or CN says nothing receives at
 * the coordinator's address, how often an unregistered CN retries, how many
 * queries run at once and how long others wait for a place; and the cluster secret, if any, that
 * authenticates every message.
 */
public final class ClusterContext {
    /** How often CNs and the coordinator send each other heartbeats. */
    public static final String HEARTBEAT_INTERVAL_PROP_NAME = "sluice.cluster.heartbeat.interval";
    /** Silence after which the coordinator calls a CN suspect (still a member). */
    public static final String SUSPECT_TIMEOUT_PROP_NAME = "sluice.cluster.suspect.timeout";
    /**
     * Silence after which a CN is dead: it leaves the membership and fails its queries; a CN that long
     * without hearing its coordinator drops its queries and registers again.
     */
    public static final String DEAD_TIMEOUT_PROP_NAME = "sluice.cluster.dead.timeout";
    /**
     * The longest silence a CN whose heartbeats came with long gaps (pauses, a loaded machine) is allowed:
     * its dead timeout is 4 times its longest recent gap, at least the dead timeout and at most this.
     */
    public static final String DEAD_TIMEOUT_MAX_PROP_NAME = "sluice.cluster.dead.timeout.max";
    /** How long the coordinator waits for every CN of a query to compile it and open its receivers. */
    public static final String PREPARE_TIMEOUT_PROP_NAME = "sluice.cluster.prepare.timeout";
    /** How long a client waits without hearing from its coordinator before it gives up. */
    public static final String CLIENT_TIMEOUT_PROP_NAME = "sluice.cluster.client.timeout";
    /**
     * How long a client or CN waits for anything to receive at the coordinator's address before it says
     * nothing does (a client then fails; a CN says so and keeps trying).
     */
    public static final String CONNECT_TIMEOUT_PROP_NAME = "sluice.cluster.connect.timeout";
    /** How often a CN that is not a member asks the coordinator to take it in. */
    public static final String REGISTER_INTERVAL_PROP_NAME = "sluice.cluster.register.interval";
    /** Queries the coordinator runs at once; more wait in line. */
    public static final String MAX_QUERIES_PROP_NAME = "sluice.cluster.max.queries";
    /** How long a query waits in line for a place before it fails. */
    public static final String QUEUE_TIMEOUT_PROP_NAME = "sluice.cluster.queue.timeout";
    /** Queries that may wait in line; one more is refused at once. */
    public static final String MAX_QUEUED_PROP_NAME = "sluice.cluster.max.queued";
    /**
     * Whether the coordinator ships the CNs' reports of their block caches with each query, so that scans no
     * colocation pins read each block on a CN that caches it.
     */
    public static final String CACHE_AFFINITY_PROP_NAME = "sluice.cluster.cache.affinity";

    /** 500 ms: two heartbeats a second each way, cheap for an idle cluster. */
    public static final long HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * 1.5 s: about two heartbeats missed; the coordinator then probes the CN's doorbell, and a killed
     * CN's host answers that its port is closed, so a killed CN is dead within about this.
     */
    public static final long SUSPECT_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(1500);
    /**
     * 4 s: a CN that is there but silent (stopped, or paused far beyond a normal collection) is dead
     * after this, before the data plane gives up on its publications (Aeron's 5 s connection timeout,
     * then {@code sluice.dispatch.disconnect.timeout}), so the error names the CN; a CN whose
     * heartbeats came late before is given up to {@link #DEAD_TIMEOUT_MAX_DEFAULT_NS}.
     */
    public static final long DEAD_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(4);
    /** 9 s: a stalled CN fails its queries within 10 s whatever its heartbeats did before. */
    public static final long DEAD_TIMEOUT_MAX_DEFAULT_NS = TimeUnit.SECONDS.toNanos(9);
    /** 60 s: opening the tables of a large store the first time takes a while. */
    public static final long PREPARE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(60);
    /** 10 s: the coordinator sends a running query's client progress a few times a second. */
    public static final long CLIENT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);
    /** 1 s: a coordinator's media driver answers a new connection within milliseconds, even when it is busy. */
    public static final long CONNECT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);
    /** 500 ms. */
    public static final long REGISTER_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * 4: each query's exchanges and operators hold bounded memory on every CN, so the limit bounds a CN's
     * memory; more at once only share the same cores.
     */
    public static final int MAX_QUERIES_DEFAULT = 4;
    /** 60 s. */
    public static final long QUEUE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(60);
    /** 256. */
    public static final int MAX_QUEUED_DEFAULT = 256;
    /** On: a store on object storage is read from the CNs' caches wherever the load stays balanced. */
    public static final boolean CACHE_AFFINITY_DEFAULT = true;

    private long heartbeatIntervalNs;
    private long suspectTimeoutNs;
    private long deadTimeoutNs;
    private long deadTimeoutMaxNs;
    private long prepareTimeoutNs;
    private long clientTimeoutNs;
    private long connectTimeoutNs;
    private long registerIntervalNs;
    private int maxQueries;
    private long queueTimeoutNs;
    private int maxQueued;
    private ClusterSecret secret;
    private Supplier<StorageReads> storageReads;
    private Supplier<List<CachedBlocks>> blockCaches;
    private boolean cacheAffinity;

    /** The defaults, overridden by any {@code sluice.cluster.*} system property set. */
    public ClusterContext() {
        heartbeatIntervalNs = SystemUtil.getDurationInNanos(HEARTBEAT_INTERVAL_PROP_NAME, HEARTBEAT_INTERVAL_DEFAULT_NS);
        suspectTimeoutNs = SystemUtil.getDurationInNanos(SUSPECT_TIMEOUT_PROP_NAME, SUSPECT_TIMEOUT_DEFAULT_NS);
        deadTimeoutNs = SystemUtil.getDurationInNanos(DEAD_TIMEOUT_PROP_NAME, DEAD_TIMEOUT_DEFAULT_NS);
        deadTimeoutMaxNs = SystemUtil.getDurationInNanos(DEAD_TIMEOUT_MAX_PROP_NAME, DEAD_TIMEOUT_MAX_DEFAULT_NS);
        prepareTimeoutNs = SystemUtil.getDurationInNanos(PREPARE_TIMEOUT_PROP_NAME, PREPARE_TIMEOUT_DEFAULT_NS);
        clientTimeoutNs = SystemUtil.getDurationInNanos(CLIENT_TIMEOUT_PROP_NAME, CLIENT_TIMEOUT_DEFAULT_NS);
        connectTimeoutNs = SystemUtil.getDurationInNanos(CONNECT_TIMEOUT_PROP_NAME, CONNECT_TIMEOUT_DEFAULT_NS);
        registerIntervalNs = SystemUtil.getDurationInNanos(REGISTER_INTERVAL_PROP_NAME, REGISTER_INTERVAL_DEFAULT_NS);
        maxQueries = SystemUtil.getSizeAsInt(MAX_QUERIES_PROP_NAME, MAX_QUERIES_DEFAULT);
        queueTimeoutNs = SystemUtil.getDurationInNanos(QUEUE_TIMEOUT_PROP_NAME, QUEUE_TIMEOUT_DEFAULT_NS);
        maxQueued = SystemUtil.getSizeAsInt(MAX_QUEUED_PROP_NAME, MAX_QUEUED_DEFAULT);
        cacheAffinity = Boolean.parseBoolean(System.getProperty(CACHE_AFFINITY_PROP_NAME,
                Boolean.toString(CACHE_AFFINITY_DEFAULT)));
    }

    /** Checks the values fit together, naming the setting to change. */
    public ClusterContext validate() {
        if (heartbeatIntervalNs <= 0 || suspectTimeoutNs <= heartbeatIntervalNs || deadTimeoutNs <= suspectTimeoutNs) {
            throw new IllegalArgumentException("heartbeat interval " + millis(heartbeatIntervalNs) + " ms < suspect"
                    + " timeout " + millis(suspectTimeoutNs) + " ms < dead timeout " + millis(deadTimeoutNs)
                    + " ms must hold (" + HEARTBEAT_INTERVAL_PROP_NAME + ", " + SUSPECT_TIMEOUT_PROP_NAME + ", "
                    + DEAD_TIMEOUT_PROP_NAME + ")");
        }
        if (deadTimeoutMaxNs < deadTimeoutNs) {
            throw new IllegalArgumentException("dead timeout max " + millis(deadTimeoutMaxNs) + " ms must be at least"
                    + " the dead timeout " + millis(deadTimeoutNs) + " ms (" + DEAD_TIMEOUT_MAX_PROP_NAME + ", "
                    + DEAD_TIMEOUT_PROP_NAME + ")");
        }
        if (prepareTimeoutNs <= 0 || registerIntervalNs <= 0 || connectTimeoutNs <= 0) {
            throw new IllegalArgumentException("prepare timeout, register interval and connect timeout must be positive ("
                    + PREPARE_TIMEOUT_PROP_NAME + ", " + REGISTER_INTERVAL_PROP_NAME + ", " + CONNECT_TIMEOUT_PROP_NAME
                    + ")");
        }
        if (clientTimeoutNs <= heartbeatIntervalNs) {
            throw new IllegalArgumentException("client timeout " + millis(clientTimeoutNs) + " ms must exceed the"
                    + " heartbeat interval " + millis(heartbeatIntervalNs) + " ms (" + CLIENT_TIMEOUT_PROP_NAME + ")");
        }
        if (maxQueries < 1 || maxQueued < 0 || queueTimeoutNs <= 0) {
            throw new IllegalArgumentException("at least one query at once, a queue of 0 or more and a positive queue"
                    + " timeout: got " + maxQueries + ", " + maxQueued + ", " + millis(queueTimeoutNs) + " ms ("
                    + MAX_QUERIES_PROP_NAME + ", " + MAX_QUEUED_PROP_NAME + ", " + QUEUE_TIMEOUT_PROP_NAME + ")");
        }
        return this;
    }

    private static long millis(final long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }

    public long heartbeatIntervalNs() {
        return heartbeatIntervalNs;
    }

    public ClusterContext heartbeatIntervalNs(final long ns) {
        this.heartbeatIntervalNs = ns;
        return this;
    }

    /** The longest silence a CN with long heartbeat gaps is allowed (default 9 s). */
    public long deadTimeoutMaxNs() {
        return deadTimeoutMaxNs;
    }

    public ClusterContext deadTimeoutMaxNs(final long ns) {
        this.deadTimeoutMaxNs = ns;
        return this;
    }

    public long suspectTimeoutNs() {
        return suspectTimeoutNs;
    }

    public ClusterContext suspectTimeoutNs(final long ns) {
        this.suspectTimeoutNs = ns;
        return this;
    }

    public long deadTimeoutNs() {
        return deadTimeoutNs;
    }

    public ClusterContext deadTimeoutNs(final long ns) {
        this.deadTimeoutNs = ns;
        return this;
    }

    public long prepareTimeoutNs() {
        return prepareTimeoutNs;
    }

    public ClusterContext prepareTimeoutNs(final long ns) {
        this.prepareTimeoutNs = ns;
        return this;
    }

    public long clientTimeoutNs() {
        return clientTimeoutNs;
    }

    public ClusterContext clientTimeoutNs(final long ns) {
        this.clientTimeoutNs = ns;
        return this;
    }

    public long connectTimeoutNs() {
        return connectTimeoutNs;
    }

    public ClusterContext connectTimeoutNs(final long ns) {
        this.connectTimeoutNs = ns;
        return this;
    }

    public long registerIntervalNs() {
        return registerIntervalNs;
    }

    public ClusterContext registerIntervalNs(final long ns) {
        this.registerIntervalNs = ns;
        return this;
    }

    public int maxQueries() {
        return maxQueries;
    }

    public ClusterContext maxQueries(final int n) {
        this.maxQueries = n;
        return this;
    }

    public long queueTimeoutNs() {
        return queueTimeoutNs;
    }

    public ClusterContext queueTimeoutNs(final long ns) {
        this.queueTimeoutNs = ns;
        return this;
    }

    public int maxQueued() {
        return maxQueued;
    }

    public ClusterContext maxQueued(final int n) {
        this.maxQueued = n;
        return this;
    }

    /** The cluster secret every message is authenticated with, or null (then the cluster stays on loopback). */
    public ClusterSecret secret() {
        return secret;
    }

    public ClusterContext secret(final ClusterSecret secret) {
        this.secret = secret;
        return this;
    }

    /**
     * This process's counters of what it read of a store on object storage, which a CN snapshots when a query
     * starts and ends and sends the difference with its finished stats; null (the default) when it reads none.
     */
    public Supplier<StorageReads> storageReads() {
        return storageReads;
    }

    public ClusterContext storageReads(final Supplier<StorageReads> counters) {
        this.storageReads = counters;
        return this;
    }

    /**
     * What this process's block cache holds, by table ({@link CachedBlocks#index()} is ignored), which a CN sends
     * with its finished stats; null (the default) when it caches no blocks.
     */
    public Supplier<List<CachedBlocks>> blockCaches() {
        return blockCaches;
    }

    public ClusterContext blockCaches(final Supplier<List<CachedBlocks>> report) {
        this.blockCaches = report;
        return this;
    }

    /** Whether the coordinator ships the CNs' cache reports with each query ({@link #CACHE_AFFINITY_PROP_NAME}). */
    public boolean cacheAffinity() {
        return cacheAffinity;
    }

    public ClusterContext cacheAffinity(final boolean on) {
        this.cacheAffinity = on;
        return this;
    }

    /** How a process of incarnation {@code incarnation} signs and checks its control messages. */
    ControlAuthentication authentication(final long incarnation) {
        return new ControlAuthentication(secret, incarnation);
    }
}
