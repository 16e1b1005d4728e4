package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * The build side of one runtime filter: a join build hands it the batches of each bucket it built
 * ({@link #collect}) and sends the partials on ({@link #publish}). A single integer key goes in by value,
 * any other key by the hash of its columns, as the probe side tests it.
 */
public final class RuntimeFilterBuild {
    private final RuntimeFilterHandle handle;
    private final RuntimeFilterRouter router;
    private final List<Expr> keys;
    private final RowType input;
    private final boolean integerKey;
    private final int bloomBytes;

    /**
     * @param keys       the build key expressions the filter is over, in the probe scan's column order
     * @param bloomBytes the size of every partial's Bloom filter, the same for every partial of the filter (every
     *                   core's and CN's), so that they merge
     */
    public RuntimeFilterBuild(final RuntimeFilterHandle handle, final RuntimeFilterRouter router, final List<Expr> keys,
                              final RowType input, final int bloomBytes) {
        this.handle = handle;
        this.router = router;
        this.keys = List.copyOf(keys);
        this.input = input;
        this.integerKey = integerKey(keys, input);
        this.bloomBytes = bloomBytes;
    }

    /** Whether keys are tested by value: one key column that is not a string. */
    public static boolean integerKey(final List<Expr> keys, final RowType input) {
        return keys.size() == 1 && new KeyColumns(keys, input).types()[0].kind() != DataType.Kind.STRING;
    }

    /** The filter this build makes. */
    public RuntimeFilterHandle handle() {
        return handle;
    }

    /** The partial filter of one bucket's (or the whole build's) batches. */
    FilterPartial collect(final List<Batch> batches) {
        long rows = 0;
        for (final Batch b : batches) {
            rows += b.rowCount();
        }
        handle.addBuildRows(rows);
        final FilterPartial partial = integerKey ? FilterPartial.integerKey(bloomBytes)
                : FilterPartial.hashedKey(bloomBytes);
        final KeyColumns columns = new KeyColumns(keys, input);
        for (final Batch b : batches) {
            if (integerKey) {
                partial.addValues(columns.values(b, 0), b.rowCount());
            } else {
                columns.evaluate(b);
                partial.addHashes(columns.hashes, b.rowCount());
            }
        }
        return partial;
    }

    /** Sends the partials of a finished build. */
    void publish(final FilterPartial[] partials) {
        router.publish(handle, partials);
    }
}
