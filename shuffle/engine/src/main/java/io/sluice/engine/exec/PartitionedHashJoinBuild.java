package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a shuffle join: its input comes one bucket per morsel (a {@link BucketSource}
 * or a colocated scan), and each worker builds the small {@link JoinHashTable}s of the buckets it
 * took, in parallel, when it runs out of morsels. A probe batch of bucket {@code b} meets only
 * bucket {@code b}'s table. Past the query's memory budget, with spilling on, a bucket's rows are
 * partitioned by key hash and the partitions that do not fit stay on disk ({@link JoinPartitions}). While a
 * worker collects, the rows it keeps are {@link RevocableMemory revocable}: another operator refused memory may make
 * them go to disk, every bucket of the worker, as on a refusal of its own.
 */
public final class PartitionedHashJoinBuild implements Sink<PartitionedHashJoinBuild.Rows>, JoinBuild {
    /** What the rows this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("PartitionedHashJoinBuild");
    private final RowType input;
    private final List<Expr> keys;
    private final boolean withColumns;
    private final int bucketCount;
    private final JoinHashTable[] tables;
    /** Per bucket, its partitions on disk; null where every row is in the table. */
    private final JoinPartitions[] spilled;
    private final List<RuntimeFilterBuild> runtimeFilters = new ArrayList<>();
    /** Per runtime filter, the partial of each bucket built here, by bucket of the whole topology. */
    private final List<FilterPartial[]> partials = new ArrayList<>();
    private int firstBucket;

    public PartitionedHashJoinBuild(final RowType input, final List<Expr> keys, final int bucketCount) {
        this(input, keys, bucketCount, true);
    }

    /** @param withColumns false when probes only ask whether a key exists (a semi or anti join without a condition) */
    public PartitionedHashJoinBuild(final RowType input, final List<Expr> keys, final int bucketCount,
                                    final boolean withColumns) {
        this.withColumns = withColumns;
        this.input = input;
        this.keys = List.copyOf(keys);
        this.bucketCount = bucketCount;
        this.tables = new JoinHashTable[bucketCount];
        this.spilled = new JoinPartitions[bucketCount];
        new KeyColumns(keys, input);
    }

    /**
     * Makes a runtime filter from each bucket's rows as the bucket is built.
     *
     * @param firstBucket  the topology bucket of this CN's bucket 0
     * @param totalBuckets buckets of the whole topology
     */
    public void addRuntimeFilter(final RuntimeFilterBuild filter, final int firstBucket, final int totalBuckets) {
        runtimeFilters.add(filter);
        partials.add(new FilterPartial[totalBuckets]);
        this.firstBucket = firstBucket;
    }

    @Override
    public RowType rowType() {
        return input;
    }

    @Override
    public List<Expr> keys() {
        return keys;
    }

    /** Accounts the rows this operator keeps in {@code account}; it throws when the query may hold no more. */
    public PartitionedHashJoinBuild memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public QueryMemory.Operator memory() {
        return memory;
    }

    @Override
    public boolean withColumns() {
        return withColumns;
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public void combine(final Rows local) {
        if (local.revocable != null) {
            local.revocable.close();
        }
        for (int b = 0; b < bucketCount; b++) {
            final JoinBuildRows bucket = local.buckets.get(b);
            if (bucket == null) {
                continue;
            }
            final JoinPartitions.Collected rows = JoinPartitions.collect(List.of(bucket));
            for (int f = 0; f < runtimeFilters.size(); f++) {
                final FilterPartial partial = runtimeFilters.get(f).collect(rows.batches(), rows.allRuns());
                synchronized (tables) {
                    partials.get(f)[firstBucket + b] = partial;
                }
            }
            final JoinPartitions.Resolved resolved = JoinPartitions.resolve(memory, input, keys, withColumns, rows);
            synchronized (tables) {
                if (tables[b] != null) {
                    throw new IllegalStateException("bucket " + b + " of " + this + " was built by two workers:"
                            + " its input must come one bucket per morsel (a shuffle exchange or colocated scan)");
                }
                tables[b] = resolved.table();
                spilled[b] = resolved.spilled();
            }
        }
    }

    @Override
    public void finish() {
        for (int f = 0; f < runtimeFilters.size(); f++) {
            final FilterPartial[] byBucket = partials.get(f);
            for (int b = 0; b < bucketCount; b++) {
                if (byBucket[firstBucket + b] == null) {
                    byBucket[firstBucket + b] = runtimeFilters.get(f).collect(List.of());
                }
            }
            runtimeFilters.get(f).publish(byBucket);
        }
        final JoinHashTable empty = JoinHashTable.build(input, keys, List.of());
        for (int b = 0; b < bucketCount; b++) {
            if (tables[b] == null) {
                tables[b] = empty;
            }
        }
    }

    @Override
    public boolean empty() {
        for (int b = 0; b < bucketCount; b++) {
            if (tables[b].rows() > 0 || spilled[b] != null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean sawNullKey() {
        for (int b = 0; b < bucketCount; b++) {
            if (tables[b].sawNullKey() || spilled[b] != null && spilled[b].sawNullKey()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public JoinPartitions spilled(final int shuffleIdx) {
        return spilled[shuffleIdx];
    }

    @Override
    public JoinHashTable table(final int shuffleIdx) {
        if (shuffleIdx < 0 || shuffleIdx >= bucketCount) {
            throw new IllegalStateException("a probe batch with shuffleIdx " + shuffleIdx + " reached " + this
                    + " of " + bucketCount + " buckets: shuffle the probe side with the build side's bucket function");
        }
        final JoinHashTable table = tables[shuffleIdx];
        if (table == null) {
            throw new IllegalStateException(this + " has no table for bucket " + shuffleIdx + ": it was not finished,"
                    + " or released after its probe ended");
        }
        return table;
    }

    @Override
    public void release() {
        java.util.Arrays.fill(tables, null);
        java.util.Arrays.fill(spilled, null);
        memory.release(memory.reserved());
    }

    @Override
    public int tableCount() {
        return bucketCount;
    }

    @Override
    public boolean partitioned() {
        return true;
    }

    @Override
    public String toString() {
        return "partitioned hash join build on " + keys + " (" + bucketCount + " buckets)";
    }

    /** The rows of some batches. */
    static long rows(final List<Batch> batches) {
        long rows = 0;
        for (final Batch b : batches) {
            rows += b.rowCount();
        }
        return rows;
    }

    /**
     * A worker's build rows, by bucket (made when the bucket gets its first batch). Once one bucket is refused
     * memory, every bucket of the worker goes to disk: the rows it keeps are what the budget lacks.
     */
    public final class Rows implements BatchConsumer {
        private final List<JoinBuildRows> buckets = new ArrayList<>();
        private boolean spilling;
        /** The rows' memory as other operators may ask for it; null when spilling is off. */
        private final RevocableMemory revocable;

        Rows() {
            for (int b = 0; b < bucketCount; b++) {
                buckets.add(null);
            }
            revocable = memory.spills() ? memory.revocable(this::spillAll) : null;
        }

        /** Writes every bucket's rows to disk; later rows go straight there. */
        private void spillAll() {
            spilling = true;
            for (final JoinBuildRows other : buckets) {
                if (other != null) {
                    other.spill();
                }
            }
        }

        @Override
        public void accept(final Batch batch) {
            if (revocable == null) {
                add(batch);
                return;
            }
            revocable.enter();
            try {
                add(batch);
            } finally {
                revocable.exit();
            }
        }

        private void add(final Batch batch) {
            final int b = batch.shuffleIdx();
            if (b < 0 || b >= bucketCount) {
                throw new IllegalStateException("a build batch with shuffleIdx " + b + " reached " + this
                        + ": its input must come from a shuffle exchange or colocated scan");
            }
            JoinBuildRows bucket = buckets.get(b);
            if (bucket == null) {
                bucket = new JoinBuildRows(memory, revocable, keys, input);
                if (spilling) {
                    bucket.spill();
                }
                buckets.set(b, bucket);
            }
            bucket.accept(batch);
            if (bucket.spilled() && !spilling) {
                spillAll();
            }
        }
    }
}
