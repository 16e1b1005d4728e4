package io.sluice.dispatch.explain;

import io.sluice.engine.exec.BatchConsumer;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Source;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.DecidedExchange;
import io.sluice.engine.plan.ExchangeFactory;
import io.sluice.shuffle.BucketFunction;

/**
 * The exchanges of a cluster's plan compiled only to be explained, never run: distributed like a
 * CN's, but each exchange's ends hold nothing and open no stream. EXPLAIN without ANALYZE compiles
 * the coordinator's CN with it, in the client, so nothing starts on the cluster.
 */
public final class PlanningExchanges implements ExchangeFactory {
    @Override
    public boolean distributed() {
        return true;
    }

    @Override
    public Ends exchange(final DecidedExchange exchange, final RowType rowType, final int[] keyColumns,
                         final BucketFunction function) {
        return new Ends(new Unrun(), new Nothing(rowType), true);
    }

    /** A sending end that is never run. */
    private static final class Unrun implements Sink<BatchConsumer> {
        @Override
        public BatchConsumer createLocal() {
            throw new IllegalStateException("an exchange compiled for EXPLAIN cannot run: run the query on a cluster");
        }

        @Override
        public void combine(final BatchConsumer local) {
        }

        @Override
        public void finish() {
        }
    }

    /** A receiving end with no rows. */
    private record Nothing(RowType rowType) implements Source {
        @Override
        public int morselCount() {
            return 0;
        }

        @Override
        public boolean ordered() {
            return false;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
            };
        }
    }
}
