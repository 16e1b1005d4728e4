package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.DataType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Block;
import io.sluice.storage.ColumnVector;

/**
 * The per-group state of one aggregate in columnar arrays indexed by group id: updated from a
 * batch in a worker's partial aggregation, merged into the final aggregation, and read out as a
 * vector. One instance per worker; not thread-safe.
 */
abstract class Accumulator {
    private static final int[] GROUP_ZERO = new int[Block.MAX_ROWS];

    /** The type of the output values. */
    abstract DataType type();

    /** Makes room for group ids below {@code groups}. */
    abstract void ensureCapacity(int groups);

    /** Adds the rows of a batch; {@code ids[i]} is row i's group. */
    abstract void update(Batch batch, int[] ids, int n);

    /** Adds the rows of a batch that all belong to group 0 (an aggregation without keys). */
    void updateSingle(final Batch batch, final int n) {
        update(batch, GROUP_ZERO, n);
    }

    /** Adds the other partial state's groups {@code [from, from + n)} into this one's groups {@code idMap[0..n)}. */
    abstract void merge(Accumulator other, int from, int[] idMap, int n);

    /** The values of groups {@code [from, to)}. */
    abstract ColumnVector output(int from, int to);

    /** Doubles the capacity of an array until it holds {@code groups}. */
    static int grow(final int current, final int groups) {
        int capacity = Math.max(current, 16);
        while (capacity < groups) {
            capacity *= 2;
        }
        return capacity;
    }
}
