package io.sluice.engine.plan;

import io.sluice.engine.exec.ShuffleExchange;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.operator.ShuffleOptions;

/**
 * The exchanges of one process: a shuffle between its cores through {@link ShuffleExchange}, one
 * bucket per core. On one CN, {@code LOCAL_ONLY} and {@code ALL_CN} are the same shuffle as
 * {@code TO_OWNER}; nothing is ever broadcast or gathered.
 */
public final class LocalExchanges implements ExchangeFactory {
    private final ShuffleOptions options;

    public LocalExchanges(final ShuffleOptions options) {
        this.options = options;
    }

    @Override
    public boolean distributed() {
        return false;
    }

    @Override
    public Ends exchange(final DecidedExchange decided, final RowType rowType, final int[] keyColumns,
                         final BucketFunction function) {
        if (!decided.shuffles()) {
            throw new IllegalArgumentException("a local exchange shuffles between cores; " + decided
                    + " needs a cluster runtime");
        }
        final ShuffleExchange exchange = new ShuffleExchange(rowType, keyColumns, function, options);
        return new Ends(exchange, exchange.output(), false);
    }
}
