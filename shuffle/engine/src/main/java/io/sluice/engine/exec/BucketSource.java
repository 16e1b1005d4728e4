package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.List;
import java.util.function.Supplier;

/**
 * The rows of a {@link ShuffleExchange} or a shuffle group's groups, one morsel per bucket: a worker that takes bucket
 * {@code b} gets all of its batches, tagged {@code shuffleIdx = b}, so a hash table built or
 * aggregated from them holds the whole bucket and needs no merge with other workers'.
 */
public final class BucketSource implements Source {
    private final RowType rowType;
    private final int bucketCount;
    private final Supplier<List<List<Batch>>> buckets;
    private List<List<Batch>> resolved;

    BucketSource(final RowType rowType, final int bucketCount, final Supplier<List<List<Batch>>> buckets) {
        this.rowType = rowType;
        this.bucketCount = bucketCount;
        this.buckets = buckets;
    }

    /**
     * Morsels as many as the supplier's list has, read when the pipeline starts, whose batches already
     * carry their bucket (a shuffle group's groups).
     */
    static BucketSource tagged(final RowType rowType, final Supplier<List<List<Batch>>> buckets) {
        return new BucketSource(rowType, -1, buckets);
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public int morselCount() {
        resolved = buckets.get();
        return bucketCount < 0 ? resolved.size() : bucketCount;
    }

    @Override
    public boolean ordered() {
        return false;
    }

    @Override
    public Reader openReader() {
        return (morsel, out) -> {
            for (final Batch b : resolved.get(morsel)) {
                out.accept(bucketCount < 0 ? b : b.withShuffleIdx(morsel));
            }
        };
    }

    @Override
    public String toString() {
        return "buckets of " + rowType.names() + (bucketCount < 0 ? "" : " (" + bucketCount + ")");
    }
}
