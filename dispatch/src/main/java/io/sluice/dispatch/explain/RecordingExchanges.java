package io.sluice.dispatch.explain;

import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.DecidedExchange;
import io.sluice.engine.plan.ExchangeFactory;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link ExchangeFactory} that hands every request to another one and notes what was asked and
 * what came back, in the order compiled (EXPLAIN numbers exchanges so), so EXPLAIN knows each exchange's mode, keys and buckets and which sink
 * and source are its two ends.
 */
public final class RecordingExchanges implements ExchangeFactory {
    private final ExchangeFactory delegate;
    private final List<RecordedExchange> recorded = new ArrayList<>();

    public RecordingExchanges(final ExchangeFactory delegate) {
        this.delegate = delegate;
    }

    @Override
    public boolean distributed() {
        return delegate.distributed();
    }

    @Override
    public RuntimeFilterRouter runtimeFilterRouter() {
        return delegate.runtimeFilterRouter();
    }

    @Override
    public Ends exchange(final DecidedExchange exchange, final RowType rowType, final int[] keyColumns,
                         final BucketFunction function) {
        final Ends ends = delegate.exchange(exchange, rowType, keyColumns, function);
        final DispatchMode mode = exchange.mode();
        final List<String> keys = new ArrayList<>();
        for (int k = 0; keyColumns != null && k < keyColumns.length; k++) {
            keys.add(rowType.name(keyColumns[k]));
        }
        recorded.add(new RecordedExchange(recorded.size(), mode, mode.readsShuffleIdx() ? keys : List.of(),
                mode.readsShuffleIdx() ? function : null, ends.sink(), ends.source()));
        return ends;
    }

    /** The exchanges asked for so far, in order. */
    public List<RecordedExchange> recorded() {
        return List.copyOf(recorded);
    }
}
