package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillRun;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * One worker's build rows of one join table: kept in memory while the query's budget gives room for them;
 * once refused, with spilling on, written by the hash of their keys to {@link SpillPartitions} (what was
 * kept too, its memory given back), so that {@link JoinPartitions#resolve} can bring back what fits. With
 * spilling off a refusal is the named {@link MemoryLimitException}. Not thread-safe: one per worker.
 *
 * <p>With spilling on, the rows kept are the worker's {@link RevocableMemory}: another operator refused memory may
 * ask for them, and they go to disk as on a refusal of their own ({@link #spill}).
 */
final class JoinBuildRows implements BatchConsumer {
    private final QueryMemory.Operator memory;
    /** The worker's revocable memory the rows are kept in, or null when spilling is off. */
    private final RevocableMemory revocable;
    private final List<Expr> keys;
    private final RowType input;
    private final List<Batch> batches = new ArrayList<>();
    private long bytes;
    /** Where rows go once the worker was refused memory; null before. */
    private SpillPartitions partitions;

    /** @param revocable the worker's revocable memory, which this reserves in; null when spilling is off */
    JoinBuildRows(final QueryMemory.Operator memory, final RevocableMemory revocable, final List<Expr> keys,
                  final RowType input) {
        this.memory = memory;
        this.revocable = revocable;
        this.keys = keys;
        this.input = input;
    }

    @Override
    public void accept(final Batch batch) {
        if (partitions != null) {
            partitions.add(batch);
            return;
        }
        final long size = QueryMemory.bytesOf(batch);
        if (revocable == null ? !memory.tryReserve(size) : !revocable.tryReserve(size)) {
            if (revocable != null) {
                spill();
                partitions.add(batch);
                return;
            }
            // The named error, unless another worker gave memory back since.
            memory.reserve(size);
        }
        batches.add(batch);
        bytes += size;
    }

    /** Whether the rows went to disk. */
    boolean spilled() {
        return partitions != null;
    }

    /** Writes the rows kept to disk and gives their memory back; later rows go straight to disk. */
    void spill() {
        if (partitions != null) {
            return;
        }
        partitions = new SpillPartitions(memory, keys, input, 0, true);
        for (final Batch b : batches) {
            partitions.add(b);
        }
        batches.clear();
        if (revocable != null) {
            revocable.release(bytes);
        } else {
            memory.release(bytes);
        }
        bytes = 0;
    }

    /** Whether a row written to disk had a NULL in a key column. */
    boolean sawNullKey() {
        return partitions != null && partitions.sawNullKey();
    }

    /** The batches kept in memory. */
    List<Batch> batches() {
        return batches;
    }

    /** The bytes the batches kept hold of the budget. */
    long bytes() {
        return bytes;
    }

    /** Closes the spill files: the runs of each level-0 partition, or null when nothing spilled. */
    List<List<SpillRun>> finish() {
        return partitions == null ? null : partitions.finish();
    }
}
