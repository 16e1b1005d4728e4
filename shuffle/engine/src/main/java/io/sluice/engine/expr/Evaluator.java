package io.sluice.engine.expr;

import io.sluice.format.Block;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;

/**
 * An expression bound to the columns of one input row type, evaluated a batch at a time into
 * primitive arrays. An evaluator owns scratch arrays, so each worker binds its own; a returned
 * array is valid until the next call on the same evaluator and must not be modified.
 *
 * <p>Exact numbers (integers, decimals as scaled longs, dates as epoch days) come out of
 * {@link #longs}, 128-bit decimals (SUM results) out of {@link #highs} and {@link #lows}, predicates
 * out of {@link #bools}, strings out of {@link #strings}. Which rows
 * are NULL comes out of {@link #nulls}, apart from the values: a NULL row's value is undefined.
 */
public abstract class Evaluator {
    /** Size of every scratch array: a batch holds at most this many rows. */
    protected static final int MAX_ROWS = Block.MAX_ROWS;

    private final DataType type;
    private boolean[] truesScratch;

    protected Evaluator(final DataType type) {
        this.type = type;
    }

    /** The type of the values. */
    public final DataType type() {
        return type;
    }

    /** The values of an exact numeric expression, one per row of the batch. */
    public long[] longs(final Batch batch) {
        if (type.isWide()) {
            throw new IllegalArgumentException(this + " is a 128-bit decimal (a SUM result) and this operation takes"
                    + " 64-bit values only: compare it, add, subtract or multiply it, divide it (a double), or order by it");
        }
        throw new IllegalStateException(this + " of type " + type + " has no numeric value");
    }

    /**
     * The high halves of a DECIMAL128 expression's 128-bit values, one per row of the batch (see
     * {@link io.sluice.format.Decimal128Vector}); {@link #lows} holds the low halves. Call this
     * before {@link #lows} for each batch: an evaluator may compute both halves here.
     */
    public long[] highs(final Batch batch) {
        throw new IllegalArgumentException(this + " of type " + type + " has no 128-bit value");
    }

    /** The low halves of a DECIMAL128 expression's 128-bit values, one per row of the batch. */
    public long[] lows(final Batch batch) {
        throw new IllegalArgumentException(this + " of type " + type + " has no 128-bit value");
    }

    /**
     * The values of an exact numeric expression as stored ints when it reads a column stored as
     * ints (no widening copy), else null: callers fall back to {@link #longs}.
     */
    public int[] ints(final Batch batch) {
        return null;
    }

    /** The values of a predicate, one per row of the batch. */
    public boolean[] bools(final Batch batch) {
        throw new IllegalStateException(this + " of type " + type + " is not a predicate");
    }

    /**
     * The NULL rows of this expression over the batch as a {@link io.sluice.format.NullMask}
     * bitmap (a set bit is a NULL row), or null when no row of the batch is NULL. Valid, like the
     * values, until the next call on this evaluator.
     */
    public long[] nulls(final Batch batch) {
        return null;
    }

    /**
     * Where a predicate is TRUE: its values with its NULL rows false, as a filter, a join condition
     * or a CASE branch takes them (SQL keeps a row only where the condition is true, not unknown).
     */
    public final boolean[] trues(final Batch batch) {
        final boolean[] values = bools(batch);
        final long[] nullRows = nulls(batch);
        if (nullRows == null) {
            return values;
        }
        if (truesScratch == null) {
            truesScratch = new boolean[MAX_ROWS];
        }
        final int n = batch.rowCount();
        for (int i = 0; i < n; i++) {
            truesScratch[i] = values[i] && !NullMask.isNull(nullRows, i);
        }
        return truesScratch;
    }

    /** The values of a string expression, one per row of the batch. */
    public StringVector strings(final Batch batch) {
        throw new IllegalStateException(this + " of type " + type + " is not a string");
    }
}
