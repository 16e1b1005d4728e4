package io.sluice.dispatch.cluster;

import io.sluice.dispatch.ComputeNode;
import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.EmbeddedCluster;
import io.sluice.dispatch.Exchange;
import io.sluice.dispatch.ExchangeCounters;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.exec.Cancellation;
import io.sluice.shuffle.exec.ColocatedScan;
import io.sluice.shuffle.exec.Pipeline;
import io.sluice.shuffle.exec.PipelineExecutor;
import io.sluice.shuffle.exec.QueryCancelledException;
import io.sluice.shuffle.exec.QueryResult;
import io.sluice.shuffle.plan.Decision;
import io.sluice.shuffle.plan.Plan;
import io.sluice.shuffle.plan.PipelineCompiler;
import io.sluice.shuffle.plan.StrategyConfig;
import io.sluice.storage.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.CloseHelper;

/**
 * A coordinator and an embedded cluster of CNs in one JVM, over one store that every CN reads
 * (shared storage): each CN has its own worker threads and its own Aeron client, and batches
 * between CNs go through Aeron publications and subscriptions ({@code aeron:ipc} through one media
 * driver, or {@code aeron:udp} on loopback with a driver per CN, see {@link Network}). The topology can
 * change between queries ({@link #topology(Topology)}): nothing stored moves, the next query plans
 * its boundaries, scan assignment and exchanges for the new shape.
 *
 * <p>To run a query the coordinator has every CN compile the same plan for its own index (the
 * fragments of one CN: its share of the scans, its buckets, its ends of every exchange), starts
 * each CN's receiver, runs each CN's pipelines on that CN's workers, and returns the rows gathered
 * on the coordinator (CN {@link PipelineCompiler#COORDINATOR}). A CN that fails tells the others
 * through its exchanges, and the query fails with the first cause. One query at a time.
 */
public final class Session implements AutoCloseable {
    /**
     * Term length of the cluster's Aeron publications unless {@code sluice.transport.term.length} is
     * set: 4 MiB, so a frame carries up to 512 KiB (most 8192-row batches whole) while the n x (n - 1)
     * publications of n CNs stay small (3 terms each).
     */
    public static final int TERM_LENGTH_DEFAULT = 4 * 1024 * 1024;
    /** Exchange ids each query may use; queries take consecutive ranges, so a late frame never meets a later query's exchange. */
    private static final int EXCHANGES_PER_QUERY = 64;

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

    private final Store store;
    private final Network network;
    private final TransportContext transport;
    private final DispatchContext dispatch;
    private final Map<String, Table> open = new HashMap<>();
    private Topology topology;
    private EmbeddedCluster cluster;
    private PipelineExecutor[] executors;
    private ExecutorService runners;
    private long nextQueryId = 1;
    private int nextExchangeId;

    /** A session over a store on a cluster of the given shape, with the default transport and dispatch settings. */
    public Session(final Store store, final Topology topology) {
        this(store, topology, Network.IPC);
    }

    /** As {@link #Session(Store, Topology)}, the CNs reaching each other over {@code network}. */
    public Session(final Store store, final Topology topology, final Network network) {
        this(store, topology, network, defaultTransport(), new DispatchContext());
    }

    public Session(final Store store, final Topology topology, final Network network, final TransportContext transport,
            final DispatchContext dispatch) {
        this.store = store;
        this.network = network;
        this.transport = transport;
        this.dispatch = dispatch;
        topology(topology);
    }

    private static TransportContext defaultTransport() {
        final TransportContext context = new TransportContext();
        return System.getProperty(TransportContext.TERM_LENGTH_PROP_NAME) == null
                ? context.termLength(TERM_LENGTH_DEFAULT) : context;
    }

    /** The cluster's current shape. */
    public synchronized Topology topology() {
        return topology;
    }

    /**
     * Changes the cluster's shape for the next query: CNs are started or stopped (their Aeron
     * clients and workers), nothing stored moves.
     */
    public synchronized void topology(final Topology next) {
        if (next.equals(topology)) {
            return;
        }
        if (topology == null || next.cnCount() != topology.cnCount()) {
            CloseHelper.close(cluster);
            cluster = null;
            cluster = network == Network.UDP ? EmbeddedCluster.udpLoopback(next.cnCount(), transport, dispatch)
                    : EmbeddedCluster.ipc(next.cnCount(), transport, dispatch);
        }
        closeExecutors();
        executors = new PipelineExecutor[next.cnCount()];
        for (int cn = 0; cn < executors.length; cn++) {
            executors[cn] = new PipelineExecutor(next.coresPerCn());
        }
        runners = Executors.newFixedThreadPool(next.cnCount(), r -> {
            final Thread t = new Thread(r, "sluice-cn-runner");
            t.setDaemon(true);
            return t;
        });
        topology = next;
    }

    /** One query's answer, the strategy of each join and group-by, its plan and what moved where. */
    public record Execution(QueryResult result, List<Decision> decisions, String explain, QueryStats stats) {
    }

    /** Runs a plan with the given strategy on the current topology. */
    public synchronized Execution execute(final String name, final Plan plan, final StrategyConfig config) {
        final long startNs = System.nanoTime();
        final long queryId = nextQueryId++;
        if (nextExchangeId + EXCHANGES_PER_QUERY > Exchange.MAX_EXCHANGE_ID) {
            nextExchangeId = 0;
        }
        final int firstExchangeId = nextExchangeId;
        nextExchangeId += EXCHANGES_PER_QUERY;
        final int cns = topology.cnCount();
        final Cancellation cancellation = new Cancellation();
        final ClusterExchanges[] exchanges = new ClusterExchanges[cns];
        final PipelineCompiler.Compiled[] compiled = new PipelineCompiler.Compiled[cns];
        try {
            for (int cn = 0; cn < cns; cn++) {
                final ComputeNode node = cluster.node(cn);
                final ComputeNode view = new ComputeNode(cn, node.channels(), node.plane(), cancellation);
                exchanges[cn] = new ClusterExchanges(view, queryId, firstExchangeId, topology, config.shuffle());
                compiled[cn] = new PipelineCompiler(this::table, config, topology, cn, exchanges[cn]).compile(plan);
                if (exchanges[cn].count() > EXCHANGES_PER_QUERY) {
                    throw new IllegalArgumentException("query " + name + " needs " + exchanges[cn].count()
                            + " exchanges, more than the " + EXCHANGES_PER_QUERY + " a query may use");
                }
            }
            run(compiled, exchanges, cancellation);
            final QueryResult result = compiled[PipelineCompiler.COORDINATOR].result().result();
            final long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            final QueryStats stats = stats(name, config, wallMillis, compiled, exchanges);
            final String explain = DistributedExplain.render(name, config, topology,
                    compiled[PipelineCompiler.COORDINATOR], exchanges[PipelineCompiler.COORDINATOR]);
            return new Execution(result, compiled[PipelineCompiler.COORDINATOR].decisions(), explain, stats);
        } finally {
            for (final ClusterExchanges e : exchanges) {
                if (e != null) {
                    e.close();
                }
            }
        }
    }

    /**
     * Runs every CN's pipelines at once. A CN that fails cancels the query everywhere and fails its
     * senders, so their receivers on other CNs fail in turn; the first failure is the cause the query
     * reports.
     */
    private void run(final PipelineCompiler.Compiled[] compiled, final ClusterExchanges[] exchanges,
            final Cancellation cancellation) {
        final AtomicReference<Throwable> first = new AtomicReference<>();
        final List<Future<?>> futures = new ArrayList<>();
        for (int cn = 0; cn < compiled.length; cn++) {
            final int c = cn;
            futures.add(runners.submit(() -> {
                try {
                    executors[c].run(compiled[c].pipelines(), cancellation);
                } catch (final RuntimeException | Error e) {
                    first.compareAndSet(null, e);
                    cancellation.cancel(e instanceof RuntimeException r ? r : new IllegalStateException(e));
                    for (final DispatchSink sink : exchanges[c].sinks()) {
                        sink.abort(e);
                    }
                }
            }));
        }
        for (final Future<?> future : futures) {
            try {
                future.get();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the cluster ran a query", e);
            } catch (final ExecutionException e) {
                first.compareAndSet(null, e.getCause());
            }
        }
        // A CN stopped by the cancel reports it; the query's cause is the failure that cancelled it.
        final Throwable t = first.get() instanceof QueryCancelledException && cancellation.cause() != null
                ? cancellation.cause() : first.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    private QueryStats stats(final String name, final StrategyConfig config, final long wallMillis,
            final PipelineCompiler.Compiled[] compiled, final ClusterExchanges[] exchanges) {
        final List<QueryStats.ExchangeStats> list = new ArrayList<>();
        long whole = 0;
        long split = 0;
        for (final ClusterExchanges e : exchanges) {
            for (final DispatchSink sink : e.sinks()) {
                whole += sink.wholeBatchRoutes();
                split += sink.splitBatches();
            }
        }
        for (final PipelineCompiler.Compiled c : compiled) {
            for (final Pipeline p : c.pipelines()) {
                if (p.source() instanceof ColocatedScan scan) {
                    whole += scan.wholeBlockReads();
                }
            }
        }
        final ClusterExchanges coordinator = exchanges[PipelineCompiler.COORDINATOR];
        for (int i = 0; i < coordinator.count(); i++) {
            final Exchange exchange = coordinator.sinks().get(i).exchange();
            final ExchangeCounters total = cluster.counters(exchange);
            final long[] bucketRows = new long[topology.bucketCount()];
            for (int b = 0; b < bucketRows.length; b++) {
                bucketRows[b] = total.rowsTo(b);
            }
            list.add(new QueryStats.ExchangeStats(i, coordinator.sinks().get(i).plannedMode().name(),
                    coordinator.sinks().get(i).keyNames(), total.remoteRows(), total.remoteBytes(), total.localRows(),
                    total.localBytes(), bucketRows));
        }
        return new QueryStats(name, config.strategy().cliName(), topology, wallMillis, whole, split, list);
    }

    /** A stored table, opened once per session (its block files mapped and checked once). */
    private Table table(final String name) {
        return open.computeIfAbsent(name, n -> {
            if (!store.hasTable(n)) {
                throw new StorageException("store " + store.dir() + " has no table '" + n + "' (it has "
                        + store.tableNames() + "): generate it with sluice gen or import it");
            }
            return store.table(n);
        });
    }

    private void closeExecutors() {
        if (executors != null) {
            for (final PipelineExecutor e : executors) {
                e.close();
            }
        }
        if (runners != null) {
            runners.shutdownNow();
        }
    }

    /** Stops the CNs and closes the tables. */
    @Override
    public synchronized void close() {
        closeExecutors();
        CloseHelper.close(cluster);
        for (final Table t : open.values()) {
            t.close();
        }
        open.clear();
    }
}
