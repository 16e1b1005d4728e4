package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillWriter;
import io.sluice.format.Block;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One worker's rows split by the hash of their keys into {@value #FANOUT} spill files, for a group table
 * or a hash join build that does not fit its budget: rows of one key always land in one partition, so
 * each partition can be grouped or joined on its own. Each level of partitioning takes the next 4 bits of
 * the key's hash, from the top, so a partition split again spreads its rows over new partitions; past
 * {@value #MAX_LEVEL} levels the rows left share too many hash bits to split (one heavy key), and the
 * operator fails with a {@link MemoryLimitException} instead. Files are made when a partition gets its
 * first row. Not thread-safe: one per worker.
 */
final class SpillPartitions {
    /** Partitions a level splits into. */
    static final int FANOUT = 16;
    /** Levels of splitting before the rows are taken for one key too heavy to split. */
    static final int MAX_LEVEL = 8;

    private final QueryMemory.Operator memory;
    private final KeyColumns keys;
    private final int level;
    private final SpillWriter[] writers = new SpillWriter[FANOUT];
    private final int[] partitionOf = new int[Block.MAX_ROWS];
    private final int[] order = new int[Block.MAX_ROWS];
    private final int[] counts = new int[FANOUT + 1];
    private boolean nullKey;
    private final boolean spreadNullKeys;
    /** The partition the next row with a NULL key goes to, when they are spread. */
    private int nextNullPartition;

    /**
     * @param keys  the key columns of the rows spilled, over their row type
     * @param level 0 for an operator's first split, one more for each split of a partition
     */
    SpillPartitions(final QueryMemory.Operator memory, final List<Expr> keys, final RowType rows, final int level) {
        this(memory, keys, rows, level, false);
    }

    /**
     * @param spreadNullKeys whether rows with a NULL in a key column go round the partitions instead of to
     *                       the one of NULL's hash: a join's, which match nothing and so need not meet, and
     *                       would otherwise make one key too heavy to split
     */
    SpillPartitions(final QueryMemory.Operator memory, final List<Expr> keys, final RowType rows, final int level,
                    final boolean spreadNullKeys) {
        if (level >= MAX_LEVEL) {
            throw new MemoryLimitException(memory + " cannot fit one partition of its rows in memory, even split "
                    + MAX_LEVEL + " times by the hash of its keys: most of its rows share one key, or the query's"
                    + " other operators hold its budget (it holds " + QueryMemory.size(memory.queryReserved())
                    + " of " + QueryMemory.size(memory.queryBudget()) + "); raise the budget with -D"
                    + MemoryProperty.QUERY_MAX.key() + "=SIZE (now " + MemoryProperty.QUERY_MAX.current() + ")");
        }
        this.memory = memory;
        this.keys = new KeyColumns(keys, rows);
        this.level = level;
        this.spreadNullKeys = spreadNullKeys;
    }

    /** The level of this split. */
    int level() {
        return level;
    }

    /** Whether a row written had a NULL in a key column. */
    boolean sawNullKey() {
        return nullKey;
    }

    /** The partition of a key hash at a level. */
    static int partition(final long hash, final int level) {
        return (int) (Hashing.mix(hash) >>> (60 - 4 * level)) & (FANOUT - 1);
    }

    /** Writes each row of the batch to its key's partition. */
    void add(final Batch batch) {
        final int n = batch.rowCount();
        if (n == 0) {
            return;
        }
        keys.evaluate(batch);
        final boolean nulls = keys.anyNull() != null;
        nullKey |= nulls;
        Arrays.fill(counts, 0);
        for (int i = 0; i < n; i++) {
            final int p = spreadNullKeys && nulls && keys.hasNull(i) ? nextNullPartition++ & (FANOUT - 1)
                    : partition(keys.hashes[i], level);
            partitionOf[i] = p;
            counts[p + 1]++;
        }
        for (int p = 0; p < FANOUT; p++) {
            counts[p + 1] += counts[p];
        }
        final int[] next = Arrays.copyOf(counts, FANOUT);
        for (int i = 0; i < n; i++) {
            order[next[partitionOf[i]]++] = i;
        }
        for (int p = 0; p < FANOUT; p++) {
            final int count = counts[p + 1] - counts[p];
            if (count == 0) {
                continue;
            }
            final Batch rows = count == n ? batch : Vectors.select(batch, Arrays.copyOfRange(order, counts[p],
                    counts[p + 1]), count);
            if (writers[p] == null) {
                writers[p] = memory.spillWriter();
            }
            writers[p].write(rows);
        }
    }

    /** Closes the files; the runs of each partition (empty lists for partitions that got no rows). */
    List<List<SpillRun>> finish() {
        final List<List<SpillRun>> runs = new ArrayList<>(FANOUT);
        for (int p = 0; p < FANOUT; p++) {
            final List<SpillRun> partition = new ArrayList<>(1);
            if (writers[p] != null) {
                partition.add(memory.spilled(writers[p].finish()));
                writers[p] = null;
            }
            runs.add(partition);
        }
        return runs;
    }
}
