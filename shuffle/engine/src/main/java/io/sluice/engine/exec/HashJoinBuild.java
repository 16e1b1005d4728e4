package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a broadcast hash join: workers collect the build rows, and {@link #finish()}
 * builds one {@link JoinHashTable} that every worker's probe shares. The probe pipeline starts
 * only after this sink finished. Past the query's memory budget, with spilling on, the rows are
 * partitioned by key hash and the partitions that do not fit stay on disk ({@link JoinPartitions}). While the
 * workers collect, the rows they keep are {@link RevocableMemory revocable}: another operator refused memory may make
 * a worker's rows go to disk.
 */
public final class HashJoinBuild implements Sink<HashJoinBuild.Rows>, JoinBuild {
    private final RowType input;
    private final List<Expr> keys;
    private final boolean withColumns;
    private final List<Rows> collected = new ArrayList<>();
    private final List<RuntimeFilterBuild> runtimeFilters = new ArrayList<>();
    private JoinHashTable built;
    /** The partitions on disk; null when every row is in {@link #built}. */
    private JoinPartitions spilled;
    /** What the rows this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("HashJoinBuild");

    public HashJoinBuild(final RowType input, final List<Expr> keys) {
        this(input, keys, true);
    }

    /** @param withColumns false when probes only ask whether a key exists (a semi or anti join without a condition) */
    public HashJoinBuild(final RowType input, final List<Expr> keys, final boolean withColumns) {
        this.withColumns = withColumns;
        this.input = input;
        this.keys = List.copyOf(keys);
        new KeyColumns(keys, input);
    }

    /** Makes a runtime filter from the build rows once they are all in, before the table is built. */
    public void addRuntimeFilter(final RuntimeFilterBuild filter) {
        runtimeFilters.add(filter);
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
    public HashJoinBuild memory(final QueryMemory.Operator account) {
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
        return new Rows(this);
    }

    @Override
    public synchronized void combine(final Rows local) {
        // Still revocable until the build finishes: another worker may be reserving while this one is done.
        collected.add(local);
    }

    @Override
    public void finish() {
        final List<JoinBuildRows> parts = new ArrayList<>(collected.size());
        for (final Rows r : collected) {
            if (r.revocable != null) {
                r.revocable.close();
            }
            parts.add(r.rows);
        }
        final JoinPartitions.Collected rows = JoinPartitions.collect(parts);
        for (final RuntimeFilterBuild f : runtimeFilters) {
            f.publish(new FilterPartial[] {f.collect(rows.batches(), rows.allRuns())});
        }
        final JoinPartitions.Resolved resolved = JoinPartitions.resolve(memory, input, keys, withColumns, rows);
        built = resolved.table();
        spilled = resolved.spilled();
        collected.clear();
    }

    @Override
    public boolean empty() {
        return built.rows() == 0 && spilled == null;
    }

    @Override
    public boolean sawNullKey() {
        return built.sawNullKey() || spilled != null && spilled.sawNullKey();
    }

    @Override
    public JoinPartitions spilled(final int shuffleIdx) {
        return spilled;
    }

    @Override
    public JoinHashTable table(final int shuffleIdx) {
        if (built == null) {
            throw new IllegalStateException(this + " has no table: it was not finished, or released after its probe"
                    + " ended");
        }
        return built;
    }

    @Override
    public void release() {
        built = null;
        spilled = null;
        memory.release(memory.reserved());
    }

    @Override
    public int tableCount() {
        return 1;
    }

    @Override
    public boolean partitioned() {
        return false;
    }

    @Override
    public String toString() {
        return "hash join build on " + keys;
    }

    /** A worker's collected build batches. */
    public static final class Rows implements BatchConsumer {
        private final JoinBuildRows rows;
        /** The rows' memory as other operators may ask for it; null when spilling is off. */
        private final RevocableMemory revocable;

        Rows(final HashJoinBuild build) {
            final QueryMemory.Operator memory = build.memory;
            this.revocable = memory.spills() ? memory.revocable(this::revoke) : null;
            this.rows = new JoinBuildRows(memory, revocable, build.keys, build.input);
        }

        private void revoke() {
            rows.spill();
        }

        @Override
        public void accept(final Batch batch) {
            if (revocable == null) {
                rows.accept(batch);
                return;
            }
            revocable.enter();
            try {
                rows.accept(batch);
            } finally {
                revocable.exit();
            }
        }
    }
}
