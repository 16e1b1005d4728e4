package io.sluice.dispatch.cluster;

import io.sluice.dispatch.ComputeNode;
import io.sluice.dispatch.Exchange;
import io.sluice.dispatch.ExchangeSource;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.DecidedExchange;
import io.sluice.engine.plan.ExchangeFactory;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.shuffle.operator.ShuffleOptions;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;

/**
 * The exchanges of one query on one CN, each under the id the plan decided for it (the same on every
 * CN, whatever order each compiles them in): each becomes a dispatch {@link Exchange} with one sending pipeline per core, a
 * {@link DispatchSink} ending the sending pipeline and a {@link StreamedSource} over this CN's
 * destinations, opened now (before any sender starts) and read while the senders send. A broadcast
 * goes to core 0 of every CN (one copy per CN), a gather to bucket 0, the coordinator's core 0.
 */
final class ClusterExchanges implements ExchangeFactory {
    private final ComputeNode node;
    private final long queryId;
    private final int firstExchangeId;
    private final Topology topology;
    private final ShuffleOptions options;
    private final List<DispatchSink> sinks = new ArrayList<>();
    private final List<ExchangeSource> sources = new ArrayList<>();
    private final RuntimeFilterRouter filterRouter;

    ClusterExchanges(final ComputeNode node, final long queryId, final int firstExchangeId, final Topology topology,
            final ShuffleOptions options, final RuntimeFilterRouter filterRouter) {
        this.filterRouter = filterRouter;
        this.node = node;
        this.queryId = queryId;
        this.firstExchangeId = firstExchangeId;
        this.topology = topology;
        this.options = options;
    }

    @Override
    public boolean distributed() {
        return true;
    }

    /** Partial runtime filters that need every CN's build go through the coordinator ({@link RuntimeFilterRouting}). */
    @Override
    public RuntimeFilterRouter runtimeFilterRouter() {
        return filterRouter;
    }

    @Override
    public Ends exchange(final DecidedExchange decided, final RowType rowType, final int[] keyColumns,
            final BucketFunction function) {
        final DispatchMode mode = decided.mode();
        final int id = firstExchangeId + decided.id();
        if (id > Exchange.MAX_EXCHANGE_ID) {
            throw new IllegalStateException("query " + queryId + " needs exchange id " + id + ", above "
                    + Exchange.MAX_EXCHANGE_ID + ": exchange ids are not being reused");
        }
        // Column names do not travel (frames carry the block layout); plan names need not be storage names.
        final List<Field> fields = new ArrayList<>();
        for (int c = 0; c < rowType.size(); c++) {
            fields.add(new Field("c" + c, rowType.type(c).storage()));
        }
        final List<String> keyNames = new ArrayList<>();
        for (int k = 0; keyColumns != null && k < keyColumns.length; k++) {
            keyNames.add(rowType.name(keyColumns[k]));
        }
        final Schema schema = new Schema(fields);
        final int senders = topology.coresPerCn();
        final Exchange exchange = switch (mode) {
            case GATHER -> Exchange.gather(queryId, id, topology, schema, senders,
                    topology.firstBucketOf(PipelineCompiler.COORDINATOR));
            default -> Exchange.of(queryId, id, topology, mode, schema, senders);
        };
        final boolean shuffles = mode.readsShuffleIdx();
        if (shuffles && function == null) {
            throw new IllegalArgumentException(mode + " exchange " + id + " needs a bucket function");
        }
        final DispatchSink sink = new DispatchSink(node, exchange, shuffles ? keyColumns : null,
                shuffles ? function : null, options, mode, sinks.size(), keyNames);
        sinks.add(sink);
        final ExchangeSource[] byCore = new ExchangeSource[topology.coresPerCn()];
        for (int core = 0; core < byCore.length; core++) {
            if (exchange.receives(topology.firstBucketOf(node.cn()) + core)) {
                byCore[core] = node.openSource(exchange, core);
                sources.add(byCore[core]);
            }
        }
        return new Ends(sink, new StreamedSource(rowType, byCore, shuffles, sink.label()), true);
    }

    /**
     * Ends every exchange of the query on this CN, however the query ended: closes the sources (a
     * source not drained tells its senders it wants nothing more) and forgets the exchanges.
     */
    void close() {
        CloseHelper.quietCloseAll(sources);
        for (final DispatchSink sink : sinks) {
            node.closeExchange(sink.exchange());
        }
    }

    /** The sinks of this CN's exchanges, in the order compiled (EXPLAIN's numbers). */
    List<DispatchSink> sinks() {
        return sinks;
    }

    /** Exchange ids used. */
    int count() {
        return sinks.size();
    }
}
