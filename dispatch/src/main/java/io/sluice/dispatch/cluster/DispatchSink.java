package io.sluice.dispatch.cluster;

import io.sluice.dispatch.ComputeNode;
import io.sluice.dispatch.Exchange;
import io.sluice.dispatch.ExchangeSink;
import io.sluice.engine.exec.BatchConsumer;
import io.sluice.engine.exec.Sink;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.shuffle.operator.ShuffleCounters;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.shuffle.operator.ShuffleOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.IdleStrategy;

/**
 * The end of a sending pipeline on one CN: each worker tags its batches with a {@code shuffleIdx}
 * (through its own {@link ShuffleOperator} when the exchange shuffles, else bucket 0: a broadcast goes to core
 * 0 of each CN whatever the tag, a gather to the coordinator's) and
 * dispatches them through its own {@link ExchangeSink}, sending pipeline = worker. When the
 * pipeline ends, the CN's senders that had no work end their streams too, so every receiver hears
 * from every sender exactly once; {@link #abort} fails them all instead when the query failed.
 */
final class DispatchSink implements Sink<DispatchSink.Sender> {
    private final ComputeNode node;
    private final Exchange exchange;
    private final int[] keyColumns;
    private final BucketFunction function;
    private final ShuffleOptions options;
    private final List<String> keyNames;
    private final DispatchMode planned;
    private final int number;
    private final AtomicInteger nextSender = new AtomicInteger();
    private final List<ExchangeSink> opened = new ArrayList<>();
    private final AtomicLong wholeBatchRoutes = new AtomicLong();
    private final AtomicLong splitBatches = new AtomicLong();

    /**
     * @param keyColumns      the columns {@code function} reads, or null for an exchange that does not shuffle
     * @param planned         the mode the plan asked for
     * @param number          the exchange's number within the query
     * @param keyNames        the names of the key columns, for EXPLAIN and stats
     */
    DispatchSink(final ComputeNode node, final Exchange exchange, final int[] keyColumns, final BucketFunction function,
            final ShuffleOptions options, final DispatchMode planned, final int number, final List<String> keyNames) {
        this.keyNames = List.copyOf(keyNames);
        this.planned = planned;
        this.number = number;
        this.node = node;
        this.exchange = exchange;
        this.keyColumns = keyColumns;
        this.function = function;
        this.options = options;
    }

    @Override
    public Sender createLocal() {
        return new Sender(open());
    }

    private synchronized ExchangeSink open() {
        final int pipeline = nextSender.getAndIncrement();
        if (pipeline >= exchange.sendersPerCn()) {
            throw new IllegalStateException("more workers than the " + exchange.sendersPerCn()
                    + " sending pipelines per CN of " + exchange.describe());
        }
        final ExchangeSink sink = node.openSink(exchange, pipeline);
        opened.add(sink);
        return sink;
    }

    @Override
    public void combine(final Sender local) {
        local.finish();
    }

    /** Ends the streams of the senders no worker used. */
    @Override
    public void finish() {
        while (nextSender.get() < exchange.sendersPerCn()) {
            try (ExchangeSink sink = open()) {
                sink.finish();
            }
        }
    }

    /** Fails every sender of this CN that has not ended, so receivers stop waiting for it. */
    synchronized void abort(final Throwable cause) {
        while (nextSender.get() < exchange.sendersPerCn()) {
            open();
        }
        for (final ExchangeSink sink : opened) {
            try {
                if (!sink.isDone()) {
                    sink.fail(cause);
                }
            } catch (final RuntimeException e) {
                cause.addSuppressed(e);
            } finally {
                sink.close();
            }
        }
    }

    Exchange exchange() {
        return exchange;
    }

    /** The mode the plan asked for. */
    DispatchMode plannedMode() {
        return planned;
    }

    /** The columns batches are shuffled by; empty when the exchange does not shuffle. */
    List<String> keyNames() {
        return keyNames;
    }

    /** Batches the shuffle operators routed whole by their zonemap, on this CN. */
    long wholeBatchRoutes() {
        return wholeBatchRoutes.get();
    }

    /** Batches the shuffle operators split row by row, on this CN. */
    long splitBatches() {
        return splitBatches.get();
    }

    @Override
    public String toString() {
        return "EXCHANGE OUT " + label();
    }

    /** The exchange as EXPLAIN names it: number, mode asked for, keys and bucket function. */
    String label() {
        return "#" + number + " " + planned + (planned == DispatchMode.BROADCAST ? " (one copy per CN)" : "")
                + (function == null ? "" : " by " + keyNames + " " + (function.owner() instanceof RangeBucketFunction
                ? "range" : "hash") + " into " + function.bucketCount() + " buckets");
    }

    /** One worker's sending pipeline. */
    final class Sender implements BatchConsumer {
        private final ExchangeSink sink;
        private final IdleStrategy idle;
        private ShuffleOperator operator;

        Sender(final ExchangeSink sink) {
            this.sink = sink;
            this.idle = node.dispatchContext().newIdleStrategy();
        }

        @Override
        public void accept(final Batch batch) {
            if (function == null) {
                sink.send(batch.withShuffleIdx(0));
                return;
            }
            if (operator == null) {
                // Over the batch's exact column types: a decimal's precision is not in the row type.
                final List<Field> fields = new ArrayList<>();
                for (int c = 0; c < batch.columnCount(); c++) {
                    fields.add(new Field(exchange.schema().field(c).name(), batch.column(c).type()));
                }
                operator = new ShuffleOperator(new Schema(fields), keyColumns, function, options);
            }
            operator.addInput(batch);
            pump();
        }

        /** Dispatches what the operator emitted; waits while its pool is held by batches not yet received. */
        private void pump() {
            while (true) {
                final Batch out = operator.getOutput();
                if (out != null) {
                    sink.send(out);
                    idle.reset();
                } else if (operator.needsInput() || operator.isFinished()) {
                    return;
                } else {
                    idle.idle();
                }
            }
        }

        void finish() {
            if (operator != null) {
                operator.finish();
                pump();
                final ShuffleCounters counters = operator.counters();
                wholeBatchRoutes.addAndGet(counters.wholeBatchRoutes());
                splitBatches.addAndGet(counters.splitBatches());
            }
            sink.finish();
            sink.close();
        }
    }
}
