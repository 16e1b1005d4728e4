package io.sluice.dispatch.cluster;

import io.sluice.dispatch.Channels;
import io.sluice.dispatch.ComputeNode;
import io.sluice.dispatch.Exchange;
import io.sluice.dispatch.ExchangeCounters;
import io.sluice.dispatch.SenderFailedException;
import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.dispatch.control.ControlMessage.Failed;
import io.sluice.dispatch.control.ControlMessage.FilterReady;
import io.sluice.dispatch.control.ControlMessage.Finished;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.Prepared;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.dispatch.control.StorageReads;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.dispatch.explain.RecordingExchanges;
import io.sluice.engine.exec.Cancellation;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.MergeSort;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.PipelineProfile;
import io.sluice.engine.exec.QueryCancelledException;
import io.sluice.engine.exec.QueryMemory;
import io.sluice.engine.exec.RuntimeFilterHandle;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.filter.RuntimeFilterCodec;
import io.sluice.engine.plan.FragmentType;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.ShippedPlan;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One query on one CN, on a thread of its own (its {@link #run}): decodes the shipped plan, compiles this CN's
 * fragments for its index in the query (every CN derives the same boundaries and scan assignment
 * from the same zonemaps), opens its exchanges' receivers and says PREPARED; on START (at once when it
 * is the query's only CN) runs its pipelines with the CN's workers; then reports FINISHED with what its
 * senders moved (CN 0 first sends the result rows, and adds the plan's EXPLAIN only where the prepare asks for it),
 * or FAILED with the cause. A CANCEL, or the CN losing its coordinator, stops it wherever it is: waiting to
 * start, running (every pipeline and exchange wait checks the query's {@link Cancellation}), or sending results.
 */
final class CnQuery implements Runnable {
    private final CnServer server;
    private final Prepare prepare;
    private final long memberId;
    private final Cancellation cancellation = new Cancellation();
    private final CountDownLatch startSignal = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean cancelled;
    private volatile List<RuntimeFilterHandle> runtimeFilters = List.of();

    CnQuery(final CnServer server, final Prepare prepare, final long memberId) {
        this.server = server;
        this.prepare = prepare;
        this.memberId = memberId;
    }

    long queryId() {
        return prepare.queryId();
    }

    /** Every CN has prepared: run. */
    void start() {
        startSignal.countDown();
    }

    /** Stops the query wherever it is (idempotent); it then reports nothing more. */
    void cancel(final String reason) {
        cancelled = true;
        cancellation.cancel(new IllegalStateException(reason));
        startSignal.countDown();
    }

    /**
     * The coordinator's runtime filter made of every CN's partials arrived (on the control thread): it goes to
     * this CN's probe scans, or, dropped, releases them from waiting for it. One that does not decode fails
     * the query.
     */
    void filterReady(final FilterReady ready) {
        for (final RuntimeFilterHandle h : runtimeFilters) {
            if (h.id() != ready.filterId()) {
                continue;
            }
            if (ready.partials().length == 0) {
                h.drop();
                return;
            }
            try {
                h.deliver(RuntimeFilterCodec.decode(ready.partials()));
            } catch (final RuntimeException e) {
                h.drop();
                cancellation.cancel(new IllegalStateException("runtime filter " + ready.filterId() + " of query "
                        + prepare.queryId() + " from the coordinator is unusable: " + e.getMessage(), e));
            }
            return;
        }
    }

    /** What this CN's block cache holds now, under this CN's index, or none when it caches no blocks. */
    private List<CachedBlocks> cacheReport() {
        final Supplier<List<CachedBlocks>> caches = server.context().blockCaches();
        if (caches == null) {
            return List.of();
        }
        final List<CachedBlocks> report = new ArrayList<>();
        for (final CachedBlocks c : caches.get()) {
            report.add(c.at(prepare.index()));
        }
        return CacheReports.fit(report);
    }

    /** Waits up to {@code timeoutNs} for the query's thread to end. */
    void awaitEnd(final long timeoutNs) {
        try {
            ended.await(timeoutNs, TimeUnit.NANOSECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        ClusterExchanges exchanges = null;
        QueryMemory memory = null;
        try {
            final Supplier<StorageReads> storageReads = server.context().storageReads();
            final StorageReads readBefore = storageReads == null ? null : storageReads.get();
            memory = QueryMemory.inSharedPool();
            final DecidedPlan decided = PlanCodec.decodeDecided(prepare.plan());
            final ShippedPlan shipped = new ShippedPlan(decided.plan(), decided.config());
            final Topology topology = new Topology(prepare.cnCount(), prepare.cores());
            final ComputeNode view = new ComputeNode(prepare.index(), channels(prepare.data(), prepare.incarnations()), server.dataPlane(),
                    cancellation);
            exchanges = new ClusterExchanges(view, prepare.queryId(), 0, topology, shipped.config().shuffle(),
                    new RuntimeFilterRouting(server::send, prepare.queryId(), memberId, prepare.index(),
                            topology.cnCount(), server.maxMessageLength()));
            final boolean gathers = prepare.index() == PipelineCompiler.COORDINATOR;
            // Only the CN that answers an EXPLAIN notes its exchanges for it: nobody else pays for the notes.
            final RecordingExchanges recorded = gathers && prepare.explain() ? new RecordingExchanges(exchanges) : null;
            final PipelineCompiler.Compiled compiled = new PipelineCompiler(server::table, shipped.config(), topology,
                    prepare.index(), recorded == null ? exchanges : recorded).memory(memory)
                    .blockCaches(CacheReports.toBlockCaches(prepare.caches(), topology.cnCount())).compile(decided);
            runtimeFilters = compiled.runtimeFilterHandles();
            server.send(new Prepared(prepare.queryId(), memberId, prepare.index()));
            awaitStart();
            final long startNs = System.nanoTime();
            final PipelineProfile profile = new PipelineProfile();
            server.executor(prepare.cores()).run(compiled.pipelines(), cancellation, profile);
            if (gathers) {
                ResultRows.send(prepare.queryId(), compiled.result().result(), server.results(),
                        server.context().prepareTimeoutNs());
            }
            final StorageReads read = readBefore == null ? null : storageReads.get().since(readBefore);
            final QueryStats stats = stats(shipped, topology, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
                    compiled, exchanges, view, profile, memory, read);
            server.send(new Finished(prepare.queryId(), memberId, prepare.index(), stats, ProcessMemory.peakRssBytes(),
                    gathers ? compiled.result().result().rowType() : null, gathers ? compiled.decisions() : List.of(),
                    recorded == null ? null : ShippedExplain.fit(DistributedExplain.render(prepare.name(),
                            shipped.config(), topology, server::table, shipped.plan(), compiled, recorded.recorded()),
                            server.maxMessageLength() / 4), cacheReport()));
        } catch (final Throwable t) {
            if (exchanges != null) {
                for (final DispatchSink sink : exchanges.sinks()) {
                    sink.abort(t);
                }
            }
            if (!cancelled) {
                final Throwable cause = t instanceof QueryCancelledException && t.getCause() != null ? t.getCause() : t;
                server.send(new Failed(prepare.queryId(), memberId, prepare.index(), cause.getClass().getSimpleName(),
                        cause.getMessage() == null ? cause.toString() : cause.getMessage(), followsAnother(cause)));
            }
        } finally {
            if (memory != null) {
                memory.close();
            }
            if (exchanges != null) {
                exchanges.close();
            }
            server.finished(this);
            ended.countDown();
        }
    }

    /** Whether a failure is this CN hearing of another CN's: the cause arose there. */
    private static boolean followsAnother(final Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SenderFailedException) {
                return true;
            }
        }
        return false;
    }

    private void awaitStart() throws InterruptedException {
        if (prepare.cnCount() == 1) {
            // Nobody else's receivers to wait for: the coordinator sends no Start.
            cancellation.check();
            return;
        }
        // The coordinator starts, cancels, or falls silent (then the CN cancels every query): never forever.
        if (!startSignal.await(2 * server.context().prepareTimeoutNs(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("CN " + server.nameOf() + " prepared query " + prepare.queryId()
                    + " but was never told to start it");
        }
        cancellation.check();
    }

    private static Channels channels(final List<StreamAddress> data, final List<Long> incarnations) {
        final String[] channels = new String[data.size()];
        final int[] streams = new int[data.size()];
        final long[] byCn = new long[data.size()];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = data.get(i).channel();
            streams[i] = data.get(i).stream();
            byCn[i] = incarnations.get(i);
        }
        return new Channels(channels, streams, byCn);
    }

    /** What the merge sorts and the full sorts of the coordinator's SINGLE fragments did; none elsewhere. */
    private QueryStats.SortStats sorts(final PipelineCompiler.Compiled compiled) {
        if (prepare.index() != PipelineCompiler.COORDINATOR) {
            return QueryStats.SortStats.NONE;
        }
        long rows = 0;
        long runs = 0;
        long full = 0;
        for (final Pipeline p : compiled.pipelines()) {
            if (p.sink() instanceof MergeSort merge) {
                rows += Math.max(0, merge.rowsMerged());
                runs += Math.max(0, merge.runs());
            } else if (p.sink() instanceof Sort && compiled.fragments().get(p) == FragmentType.SINGLE) {
                full++;
            }
        }
        return new QueryStats.SortStats(rows, runs, full);
    }

    /** What this CN's senders moved, per exchange, and how its shuffles and colocated scans routed batches. */
    private QueryStats stats(final ShippedPlan shipped, final Topology topology, final long wallMillis,
            final PipelineCompiler.Compiled compiled, final ClusterExchanges exchanges, final ComputeNode view,
            final PipelineProfile profile, final QueryMemory memory, final StorageReads storage) {
        long whole = 0;
        long split = 0;
        final List<QueryStats.ExchangeStats> list = new ArrayList<>();
        for (int i = 0; i < exchanges.count(); i++) {
            final DispatchSink sink = exchanges.sinks().get(i);
            whole += sink.wholeBatchRoutes();
            split += sink.splitBatches();
            final Exchange exchange = sink.exchange();
            final ExchangeCounters counters = view.counters(exchange);
            final long[] bucketRows = new long[topology.bucketCount()];
            for (int b = 0; b < bucketRows.length; b++) {
                bucketRows[b] = counters.rowsTo(b);
            }
            list.add(new QueryStats.ExchangeStats(i, sink.plannedMode().name(), sink.keyNames(), counters.remoteRows(),
                    counters.remoteBytes(), counters.localRows(), counters.localBytes(), bucketRows,
                    counters.storedBatches(), counters.storedBytes()));
        }
        for (final Pipeline p : compiled.pipelines()) {
            if (p.source() instanceof ColocatedScan scan) {
                whole += scan.wholeBlockReads();
            }
        }
        return new QueryStats(prepare.name(), shipped.config().strategy().cliName(), topology, wallMillis, whole, split,
                list, compiled.runtimeFilterStats(), sorts(compiled), profile.counters(compiled.pipelines()),
                memory(memory), storage);
    }

    /** Each operator's peak and spilled bytes on this CN. */
    private static List<QueryStats.OperatorMemory> memory(final QueryMemory memory) {
        final List<QueryStats.OperatorMemory> out = new ArrayList<>();
        for (final QueryMemory.OperatorPeak p : memory.operatorPeaks()) {
            out.add(new QueryStats.OperatorMemory(p.operator(), p.peakBytes(), p.spilledBytes()));
        }
        return out;
    }
}
