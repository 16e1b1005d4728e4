package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage.CnUsage;
import io.sluice.dispatch.control.ControlMessage.Failed;
import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.dispatch.control.ControlMessage.Finished;
import io.sluice.dispatch.control.ControlMessage.QueryDone;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.dispatch.control.StorageReads;
import io.sluice.engine.exec.PipelineCounters;
import io.sluice.engine.exec.RuntimeFilterStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One query as the coordinator runs it: the client that asked, the CNs it runs on by index, which of
 * them have prepared and finished, the runtime filters it gathers from them, and CN 0's end of the result
 * rows (the batches went on to the client as they came); then the answer, the stats of every CN summed.
 * Used by the coordinator's control loop only.
 */
final class CoordinatedQuery {
    enum Phase { PREPARING, RUNNING }

    final long queryId;
    final long requestId;
    final String name;
    final Peer client;
    final List<Member> cns;
    final int cores;
    final long startNs;
    /** The query's own timeout (0: none) and when it ends ({@link Long#MAX_VALUE} for none). */
    final long timeoutMillis;
    final long deadlineNs;
    /** The result's names as SQL gives them, for SQL text the coordinator planned; null: the plan's own. */
    private final List<String> columns;
    Phase phase = Phase.PREPARING;
    private final boolean[] prepared;
    private final Finished[] finished;
    private int preparedCount;
    private int finishedCount;
    private ResultEnd resultEnd;
    private final Map<Integer, RuntimeFilterGather> filters = new HashMap<>();
    /** A CN's failure that follows another CN's, kept while the coordinator waits for the first cause. */
    Failed secondary;
    long secondaryAtNs;

    CoordinatedQuery(final long queryId, final long requestId, final String name, final Peer client,
            final List<Member> cns, final int cores, final long startNs, final long timeoutMillis,
            final long deadlineNs, final List<String> columns) {
        this.queryId = queryId;
        this.requestId = requestId;
        this.name = name;
        this.client = client;
        this.cns = List.copyOf(cns);
        this.cores = cores;
        this.startNs = startNs;
        this.timeoutMillis = timeoutMillis;
        this.deadlineNs = deadlineNs;
        this.columns = columns;
        this.prepared = new boolean[cns.size()];
        this.finished = new Finished[cns.size()];
    }

    /** The index of a CN in this query, or -1 when it is not one of its CNs. */
    int indexOf(final long memberId) {
        for (int i = 0; i < cns.size(); i++) {
            if (cns.get(i).memberId == memberId) {
                return i;
            }
        }
        return -1;
    }

    /** Records that CN {@code index} prepared; whether all have. */
    boolean prepared(final int index) {
        if (!prepared[index]) {
            prepared[index] = true;
            preparedCount++;
        }
        return preparedCount == cns.size();
    }

    /** The CNs that have not prepared, for a timeout's message. */
    List<String> notPrepared() {
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < cns.size(); i++) {
            if (!prepared[i]) {
                names.add(cns.get(i).name);
            }
        }
        return names;
    }

    /** Records CN {@code index}'s report (its index in this query, not what the message claims). */
    void finished(final int index, final Finished report) {
        if (finished[index] == null) {
            finished[index] = report;
            finishedCount++;
        }
    }

    /**
     * Takes CN {@code index}'s partial runtime filters; returns the filter for every CN once all CNs' partials
     * of it are in, else null.
     */
    byte[] filterPartials(final int index, final FilterPartials partials) {
        return filters.computeIfAbsent(partials.filterId(), id -> new RuntimeFilterGather(id, cns.size()))
                .add(index, partials);
    }


    void resultsEnded(final ResultEnd end) {
        resultEnd = end;
    }

    /** CN 0's end of the result rows. */
    ResultEnd resultEnd() {
        return resultEnd;
    }

    /** Whether every CN finished and CN 0's rows are all here. */
    boolean complete() {
        return finishedCount == cns.size() && resultEnd != null;
    }

    /**
     * The answer to the client: CN 0's result type, the result's names (SQL's, or the result type's), CN 0's
     * decisions and plan, every CN's stats summed.
     */
    QueryDone done(final long nowNs) {
        final Finished first = finished[0];
        final Map<Integer, QueryStats.ExchangeStats> exchanges = new LinkedHashMap<>();
        final Map<Integer, RuntimeFilterStats> filters = new LinkedHashMap<>();
        long whole = 0;
        long split = 0;
        QueryStats.SortStats sorts = QueryStats.SortStats.NONE;
        List<PipelineCounters> pipelines = null;
        List<QueryStats.OperatorMemory> memory = null;
        StorageReads storage = null;
        final List<CnUsage> usage = new ArrayList<>();
        for (int i = 0; i < finished.length; i++) {
            final QueryStats s = finished[i].stats();
            whole += s.wholeBlockRoutes();
            split += s.splitBatches();
            sorts = sorts.plus(s.sorts());
            storage = StorageReads.plus(storage, s.storage());
            pipelines = pipelines == null ? new ArrayList<>(s.pipelines()) : summed(pipelines, s.pipelines());
            memory = memory == null ? new ArrayList<>(s.memory()) : memorySummed(memory, s.memory());
            for (final QueryStats.ExchangeStats e : s.exchanges()) {
                exchanges.merge(e.id(), e, CoordinatedQuery::sum);
            }
            for (final RuntimeFilterStats f : s.runtimeFilters()) {
                filters.merge(f.id(), f, RuntimeFilterStats::plus);
            }
            usage.add(new CnUsage(cns.get(i).name, finished[i].rssBytes()));
        }
        final QueryStats stats = new QueryStats(name, first.stats().strategy(), first.stats().topology(),
                TimeUnit.NANOSECONDS.toMillis(nowNs - startNs), whole, split, new ArrayList<>(exchanges.values()),
                new ArrayList<>(filters.values()), sorts, pipelines == null ? List.of() : pipelines,
                memory == null ? List.of() : memory, storage);
        // Names a SqlPlanning gave for other columns than its plan's must not stop the control loop (QueryDone
        // refuses them): the result type's own names then.
        final List<String> names = first.resultType() == null ? List.of()
                : columns == null || columns.size() != first.resultType().size() ? first.resultType().names() : columns;
        return new QueryDone(requestId, queryId, stats, first.resultType(), names, first.decisions(), first.explain(),
                usage);
    }

    /** Each pipeline's counters of two CNs summed; none when one CN counted none. */
    private static List<PipelineCounters> summed(final List<PipelineCounters> a, final List<PipelineCounters> b) {
        if (a.size() != b.size()) {
            return List.of();
        }
        final List<PipelineCounters> out = new ArrayList<>(a.size());
        for (int p = 0; p < a.size(); p++) {
            out.add(a.get(p).plus(b.get(p)));
        }
        return out;
    }

    /**
     * Each operator's memory on two CNs together; every CN compiles the same plan, so the operators line up,
     * and where they do not (a CN that compiled none) the one list that has them.
     */
    private static List<QueryStats.OperatorMemory> memorySummed(final List<QueryStats.OperatorMemory> a,
                                                                final List<QueryStats.OperatorMemory> b) {
        if (a.size() != b.size()) {
            return a.size() >= b.size() ? a : new ArrayList<>(b);
        }
        final List<QueryStats.OperatorMemory> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            out.add(a.get(i).plus(b.get(i)));
        }
        return out;
    }

    private static QueryStats.ExchangeStats sum(final QueryStats.ExchangeStats a, final QueryStats.ExchangeStats b) {
        final long[] rows = a.bucketRows().clone();
        for (int i = 0; i < rows.length && i < b.bucketRows().length; i++) {
            rows[i] += b.bucketRows()[i];
        }
        return new QueryStats.ExchangeStats(a.id(), a.mode(), a.keys(), a.rowsRemote() + b.rowsRemote(),
                a.bytesRemote() + b.bytesRemote(), a.rowsLocal() + b.rowsLocal(), a.bytesLocal() + b.bytesLocal(), rows,
                a.blocksSentStored() + b.blocksSentStored(), a.bytesSentStored() + b.bytesSentStored());
    }

    /** "query q (name)", for messages. */
    String describe() {
        return "query " + queryId + " (" + name + ")";
    }
}
