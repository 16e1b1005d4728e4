package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.format.Block;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * The build side of one runtime filter: a join build hands it the batches of each bucket it built
 * ({@link #collect}) and sends the partials on ({@link #publish}). A single integer key goes in by value,
 * any other key by the hash of its columns, as the probe side tests it. A build row with a NULL key
 * matches no probe row, so it is not added: the filter is made for inner and semi joins only, which
 * drop a probe row with a NULL key anyway, whether the filter passes it or not.
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
        return collect(batches, List.of());
    }

    /**
     * The partial filter of one bucket's (or the whole build's) rows: the batches in memory and those of a
     * build that went to disk, read back once, since a probe row its filter drops never reaches the join.
     */
    FilterPartial collect(final List<Batch> batches, final List<SpillRun> spilled) {
        final FilterPartial partial = integerKey ? FilterPartial.integerKey(bloomBytes)
                : FilterPartial.hashedKey(bloomBytes);
        final KeyColumns columns = new KeyColumns(keys, input);
        final long[][] kept = new long[1][];
        long rows = 0;
        for (final Batch b : batches) {
            rows += b.rowCount();
            add(partial, columns, kept, b);
        }
        for (final SpillRun run : spilled) {
            rows += run.rows();
            try (SpillReader reader = run.open()) {
                for (Batch b = reader.next(); b != null; b = reader.next()) {
                    add(partial, columns, kept, b);
                }
            }
        }
        handle.addBuildRows(rows);
        return partial;
    }

    /** Adds a batch's keys, those with a NULL left out; {@code scratch[0]} keeps the array they are copied to. */
    private void add(final FilterPartial partial, final KeyColumns columns, final long[][] scratch, final Batch b) {
        final int n = b.rowCount();
        final long[] keyWords;
        if (integerKey) {
            columns.evaluateUnhashed(b);
            keyWords = columns.longs[0];
        } else {
            columns.evaluate(b);
            keyWords = columns.hashes;
        }
        final long[] nulls = columns.anyNull();
        long[] added = keyWords;
        int m = n;
        if (nulls != null) {
            if (scratch[0] == null) {
                scratch[0] = new long[Block.MAX_ROWS];
            }
            final long[] kept = scratch[0];
            m = 0;
            for (int i = 0; i < n; i++) {
                kept[m] = keyWords[i];
                m += NullMask.isNull(nulls, i) ? 0 : 1;
            }
            added = kept;
        }
        if (integerKey) {
            partial.addValues(added, m);
        } else {
            partial.addHashes(added, m);
        }
    }

    /** Sends the partials of a finished build. */
    void publish(final FilterPartial[] partials) {
        router.publish(handle, partials);
    }
}
