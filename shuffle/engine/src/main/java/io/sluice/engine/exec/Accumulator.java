package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;

/**
 * The per-group state of one aggregate in columnar arrays indexed by group id: updated from a
 * batch in a worker's table, merged into the final table, and read out as a vector of values or,
 * for a two-phase aggregation, as state columns that another table merges back in. One instance
 * per worker; not thread-safe.
 */
abstract class Accumulator {
    /** Group ids for a batch whose rows all belong to group 0 (an aggregation without keys). */
    static final int[] GROUP_ZERO = new int[Block.MAX_ROWS];

    /** The type of the output values. */
    abstract DataType type();

    /** Makes room for group ids below {@code groups}. */
    abstract void ensureCapacity(int groups);

    /** Adds the rows of a batch; {@code ids[i]} is row i's group. */
    abstract void update(Batch batch, int[] ids, int n);

    /**
     * Adds the rows of a batch listed group by group in {@code runs} ({@code ids[i]} is row i's group,
     * as for {@link #update}); by default as {@link #update} does.
     */
    void update(final Batch batch, final int[] ids, final int n, final GroupRuns runs) {
        update(batch, ids, n);
    }

    /** Adds the rows of a batch that all belong to group 0 (an aggregation without keys). */
    void updateSingle(final Batch batch, final int n) {
        update(batch, GROUP_ZERO, n);
    }

    /**
     * Bytes it keeps beside a fixed state per group (the distinct values of a COUNT DISTINCT), which its aggregation
     * reserves as they grow; 0 for the others.
     */
    long heldBytes() {
        return 0;
    }

    /** Adds the other partial state's groups {@code [from, from + n)} into this one's groups {@code idMap[0..n)}. */
    abstract void merge(Accumulator other, int from, int[] idMap, int n);

    /** The values of groups {@code [from, to)}. */
    abstract ColumnVector output(int from, int to);

    /**
     * The state columns of an aggregate with the given output name: plain columns a batch carries
     * between compute nodes, named {@code <name>$<part>}.
     */
    abstract RowType stateType(String name);

    /** The state of groups {@code [from, to)}, one vector per column of {@link #stateType}. */
    abstract ColumnVector[] outputState(int from, int to);

    /**
     * Adds state rows, as {@link #outputState} wrote them, from the batch's columns starting at
     * {@code firstColumn}; {@code ids[i]} is row i's group.
     */
    abstract void mergeState(Batch batch, int firstColumn, int[] ids, int n);

    /** Groups {@code [from, to)} of a per-group array as an INT64 column. */
    static ColumnVector int64Column(final long[] perGroup, final int from, final int to) {
        return new LongVector(ColumnType.INT64, Arrays.copyOfRange(perGroup, from, to), to - from, null);
    }

    /** The values of an INT64 state column. */
    static long[] int64Values(final Batch batch, final int column) {
        if (batch.column(column) instanceof LongVector v) {
            return v.values();
        }
        throw new IllegalArgumentException("state column " + column + " holds " + batch.column(column).type()
                + ", expected int64: a final aggregation reads the rows of the matching partial aggregation");
    }

    /** Doubles the capacity of an array until it holds {@code groups}. */
    static int grow(final int current, final int groups) {
        int capacity = Math.max(current, 16);
        while (capacity < groups) {
            capacity *= 2;
        }
        return capacity;
    }
}
