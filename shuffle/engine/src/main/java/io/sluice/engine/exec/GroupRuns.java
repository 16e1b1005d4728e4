package io.sluice.engine.exec;

import io.sluice.format.Block;
import java.util.Arrays;

/**
 * A batch's rows listed group by group: for a table of few groups, where consecutive rows keep
 * adding to the same few groups, an accumulator sums each group's rows in registers and writes
 * the group's state once per batch, instead of a load and a store per row that wait on the
 * previous row's store to the same group (Q1's four groups, eight aggregates over every lineitem
 * row). A counting sort over the group ids, made once per batch and read by every accumulator.
 * Not thread-safe: one per worker's group table.
 */
final class GroupRuns {
    /** The largest table this is made for: above it the rows of one group are rarely near each other. */
    static final int MAX_GROUPS = 64;

    /** The batch's rows, those of one group together, each group's ascending. */
    final int[] rows = new int[Block.MAX_ROWS];
    /** Per run: its group, and where its rows start in {@link #rows}; run {@code r} ends where {@code r + 1} starts. */
    final int[] groups = new int[MAX_GROUPS];
    final int[] starts = new int[MAX_GROUPS + 1];
    /** How many groups have rows in the batch. */
    int count;
    private final int[] sizes = new int[MAX_GROUPS];

    /** Lists the {@code n} rows whose groups are {@code ids}, all below {@code groupCount} (at most {@link #MAX_GROUPS}). */
    void group(final int[] ids, final int n, final int groupCount) {
        Arrays.fill(sizes, 0, groupCount, 0);
        for (int i = 0; i < n; i++) {
            sizes[ids[i]]++;
        }
        count = 0;
        int at = 0;
        for (int g = 0; g < groupCount; g++) {
            if (sizes[g] > 0) {
                groups[count] = g;
                starts[count] = at;
                at += sizes[g];
                // sizes[g] becomes where the group's next row goes
                sizes[g] = starts[count];
                count++;
            }
        }
        starts[count] = at;
        for (int i = 0; i < n; i++) {
            rows[sizes[ids[i]]++] = i;
        }
    }

    /** Rows in run {@code r}. */
    int length(final int r) {
        return starts[r + 1] - starts[r];
    }
}
