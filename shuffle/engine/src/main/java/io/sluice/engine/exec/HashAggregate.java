package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Hash aggregation. As a merge group (seed 003), each worker aggregates its morsels into its own
 * hash table (its local sink state), and {@link #finish()} merges the workers' tables into the
 * final one; as a shuffle group, each morsel is a whole bucket of a shuffle on a group key, so
 * every worker's table is final and {@link #finish()} only concatenates them. Either way the
 * groups come out as batches of key columns followed by aggregate columns. Without group keys it
 * yields exactly one row.
 *
 * <p>Across compute nodes it runs in two {@link AggregationPhase phases}: each node's PARTIAL
 * aggregation puts out state rows ({@link #stateType}) instead of values, and one FINAL
 * aggregation merges the state rows of all nodes by key into the values one SINGLE aggregation
 * over all the rows would give.
 *
 * <p>A merge group past the query's memory budget, with spilling on, goes on on disk: a worker refused
 * memory writes its table's groups as state rows (as PARTIAL makes them), split by the hash of their keys
 * into {@link SpillPartitions}, and starts a new table. Once any worker spilled, {@link #finish()} writes
 * the other tables out too, and the output has one morsel per partition: each is grouped again from its
 * state rows on its own, as FINAL merges them, and split again by further hash bits when it still does not
 * fit. A shuffle group, COUNT DISTINCT, and an aggregation without keys do not spill.
 *
 * <p>A worker's table is {@link RevocableMemory revocable}: when another operator of the query is refused memory (a
 * join before it loading a partition from disk), the table is written out as on a refusal of its own, on that
 * operator's thread between two of the worker's batches, or after the worker handed it over.
 */
public final class HashAggregate implements Sink<HashAggregate.Groups> {
    /** A batch of fewer rows is added row by row: listing its rows group by group would cost more than it saves. */
    private static final int RUNS_MIN_ROWS = 256;
    /** What the groups this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("HashAggregate");
    private final RowType input;
    private final List<NamedExpr> keys;
    private final List<Aggregate> aggregates;
    private final AggregationPhase phase;
    private final boolean partitioned;
    private final RowType keyType;
    /** The key columns by name: over a table's key columns, and over state rows. */
    private final List<Expr> keyRefs;
    /** The rows the workers consume: the input, or the state rows for FINAL. */
    private final RowType consumed;
    private final List<Expr> consumedKeys;
    /** Where each aggregate's state columns start in a state row (not for SINGLE of COUNT DISTINCT). */
    private final int[] stateColumns;
    /** The state rows of the aggregates; null when they have none (COUNT DISTINCT). */
    private final RowType stateType;
    /** Per partition, the state rows the workers spilled; null while nothing spilled. */
    private List<List<SpillRun>> spilled;
    /** Groups the state rows of one spilled partition, into this aggregation's output; made when it spills. */
    private HashAggregate merger;
    private final RowType output;
    private final List<Groups> tables = new ArrayList<>();
    private List<Batch> result;
    /** A shuffle group's groups by bucket. */
    private List<List<Batch>> resultByBucket;
    /** A shuffle group's groups written to disk, by bucket as {@link #resultByBucket}. */
    private List<List<SpillRun>> bucketsOnDisk;
    /** Morsels of {@link #resultByBucket} that are buckets; those after are untagged batches. */
    private int taggedBuckets;

    /** A merge group: each worker aggregates its morsels, {@link #finish()} merges the workers' tables. */
    public HashAggregate(final RowType input, final List<NamedExpr> keys, final List<Aggregate> aggregates) {
        this(input, keys, aggregates, false);
    }

    /**
     * @param partitioned true for a shuffle group: the input comes one bucket per morsel and the
     *                    buckets split the groups (the shuffle key is among the group keys), so
     *                    the workers' tables hold disjoint groups and {@link #finish()} only
     *                    concatenates them
     */
    public HashAggregate(final RowType input, final List<NamedExpr> keys, final List<Aggregate> aggregates,
                         final boolean partitioned) {
        this(input, keys, aggregates, partitioned, AggregationPhase.SINGLE);
    }

    /**
     * One phase of an aggregation.
     *
     * @param input       the rows aggregated: what SINGLE and PARTIAL consume; FINAL consumes the
     *                    state rows PARTIAL makes of them, {@link #stateType} of the same arguments
     * @param partitioned as for the merge and shuffle groups above; for FINAL, true when the state
     *                    rows come bucketed by a group key
     * @param phase       PARTIAL and FINAL need {@link #splittable} aggregates
     */
    public HashAggregate(final RowType input, final List<NamedExpr> keys, final List<Aggregate> aggregates,
                         final boolean partitioned, final AggregationPhase phase) {
        if (partitioned && keys.isEmpty()) {
            throw new IllegalArgumentException("a shuffle group needs group keys: aggregate without keys as a merge group");
        }
        if (keys.isEmpty() && aggregates.isEmpty()) {
            throw new IllegalArgumentException("an aggregation needs group keys or aggregates");
        }
        this.input = input;
        this.keys = List.copyOf(keys);
        this.aggregates = List.copyOf(aggregates);
        this.phase = phase;
        this.partitioned = partitioned;
        final List<String> names = new ArrayList<>();
        final List<DataType> types = new ArrayList<>();
        final List<Expr> exprs = new ArrayList<>();
        final List<Expr> refs = new ArrayList<>();
        for (final NamedExpr k : keys) {
            final DataType keyType = k.expr().bind(input).type();
            if (keyType.isWide() && phase != AggregationPhase.FINAL) {
                throw new IllegalArgumentException("GROUP BY " + k.name() + " = " + k.expr() + ": the key is a 128-bit"
                        + " decimal (a SUM result), which a group key cannot be yet; group by the sum's inputs instead");
            }
            names.add(k.name());
            types.add(keyType);
            exprs.add(k.expr());
            refs.add(Expr.col(k.name()));
        }
        this.keyType = new RowType(names, types);
        this.keyRefs = List.copyOf(refs);
        for (final Aggregate a : aggregates) {
            names.add(a.name());
            types.add(a.outputType(input));
        }
        final RowType values = new RowType(names, types);
        this.stateColumns = new int[aggregates.size()];
        RowType state = keyType;
        if (phase != AggregationPhase.SINGLE || splittable(aggregates)) {
            for (int a = 0; a < stateColumns.length; a++) {
                final Aggregate aggregate = aggregates.get(a);
                if (!splittable(aggregate)) {
                    throw new IllegalArgumentException(aggregate.function() + " as '" + aggregate.name()
                            + "' has no partial state, so it cannot run as " + phase + ": aggregate it in one phase"
                            + " (HashAggregate.splittable says which aggregates can)");
                }
                stateColumns[a] = state.size();
                state = state.concat(aggregate.newAccumulator(input).stateType(aggregate.name()));
            }
        }
        this.stateType = splittable(aggregates) ? state : null;
        this.output = phase == AggregationPhase.PARTIAL ? state : values;
        this.consumed = phase == AggregationPhase.FINAL ? state : input;
        this.consumedKeys = phase == AggregationPhase.FINAL ? keyRefs : List.copyOf(exprs);
    }

    /**
     * The state rows of a PARTIAL aggregation, which its FINAL aggregation consumes: the key
     * columns, then each aggregate's state columns, named after the aggregate: {@code <name>$sum_hi},
     * {@code <name>$sum_lo} (the 128-bit sum's halves) and {@code <name>$count} for SUM and AVG;
     * {@code <name>$count} for COUNT and COUNT_STAR; {@code <name>$value} for MIN and MAX, null for a
     * group of no rows. Every state column is INT64 but MIN and MAX's, of the argument's type.
     *
     * @throws IllegalArgumentException when the aggregates are not {@link #splittable}
     */
    public static RowType stateType(final RowType input, final List<NamedExpr> keys,
                                    final List<Aggregate> aggregates) {
        return new HashAggregate(input, keys, aggregates, false, AggregationPhase.PARTIAL).outputType();
    }

    /**
     * Whether the aggregates can run as PARTIAL and FINAL: all but COUNT_DISTINCT, whose partial
     * counts do not add up (one value may be counted on two compute nodes).
     */
    public static boolean splittable(final List<Aggregate> aggregates) {
        for (final Aggregate a : aggregates) {
            if (!splittable(a)) {
                return false;
            }
        }
        return true;
    }

    private static boolean splittable(final Aggregate aggregate) {
        return aggregate.function() != AggregateFunction.COUNT_DISTINCT;
    }

    /** Key columns, then one column per aggregate, or for PARTIAL each aggregate's state columns. */
    public RowType outputType() {
        return output;
    }

    /**
     * The groups, for the pipeline that reads them (valid after {@link #finish()}): a shuffle group's
     * one morsel per bucket, tagged with it (the buckets of its input, which split the groups), so that
     * a partitioned join or group-by above needs no new shuffle; a merge group's one morsel per batch.
     */
    public Source output() {
        return partitioned ? new BucketOutput() : new Output();
    }

    /** Groups the workers wrote to disk, in bytes; 0 when the groups fit. */
    public long spilledBytes() {
        return memory.spilledBytes();
    }

    /** Whether a worker's table spills to disk when refused memory, rather than failing the query. */
    private boolean spills() {
        return memory.spills() && stateType != null && !keys.isEmpty();
    }

    /** The FINAL aggregation that groups spilled state rows again, made the first time it is needed. */
    private synchronized HashAggregate merger() {
        if (merger == null) {
            merger = new HashAggregate(input, keys, aggregates, false, AggregationPhase.FINAL);
            merger.memory = memory;
        }
        return merger;
    }

    /** Accounts the groups this operator keeps in {@code account}; it throws when the query may hold no more. */
    public HashAggregate memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public Groups createLocal() {
        final Groups local = new Groups();
        if (spills()) {
            local.revocable = memory.revocable(local::revoke);
        }
        return local;
    }

    @Override
    public void combine(final Groups local) {
        if (!partitioned && local.spilledYet()) {
            // Spilled once: the rest goes to disk too, by the worker that holds it.
            local.endRevocable();
            local.spillTable();
            addSpilled(local.partitions.finish());
            return;
        }
        synchronized (this) {
            tables.add(local);
        }
    }

    private synchronized void addSpilled(final List<List<SpillRun>> runs) {
        if (spilled == null) {
            spilled = new ArrayList<>();
            for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                spilled.add(new ArrayList<>());
            }
        }
        for (int p = 0; p < SpillPartitions.FANOUT; p++) {
            spilled.get(p).addAll(runs.get(p));
        }
    }

    @Override
    public void finish() {
        for (final Groups t : tables) {
            t.endRevocable();
        }
        if (!partitioned) {
            // Tables another operator made spill after their workers handed them over.
            for (final Iterator<Groups> it = tables.iterator(); it.hasNext();) {
                final Groups t = it.next();
                if (t.partitions != null) {
                    t.spillTable();
                    addSpilled(t.partitions.finish());
                    it.remove();
                }
            }
        }
        if (spilled != null) {
            for (final Groups t : tables) {
                t.partitions = new SpillPartitions(memory, keyRefs, stateType, 0);
                t.spillTable();
                addSpilled(t.partitions.finish());
            }
            tables.clear();
            spilled.removeIf(List::isEmpty);
            merger();
            return;
        }
        if (partitioned) {
            final List<List<Batch>> byBucket = new ArrayList<>();
            final List<List<SpillRun>> onDisk = new ArrayList<>();
            final List<Batch> untagged = new ArrayList<>();
            final List<SpillRun> untaggedOnDisk = new ArrayList<>();
            for (final Groups t : tables) {
                t.seal();
                for (final Bucket b : t.sealed) {
                    if (b.bucket() == Batch.NO_SHUFFLE_IDX) {
                        untagged.addAll(b.batches());
                        continue;
                    }
                    while (byBucket.size() <= b.bucket()) {
                        byBucket.add(new ArrayList<>());
                        onDisk.add(new ArrayList<>());
                    }
                    byBucket.get(b.bucket()).addAll(b.batches());
                }
                for (final SpilledBucket b : t.sealedOnDisk) {
                    if (b.bucket() == Batch.NO_SHUFFLE_IDX) {
                        untaggedOnDisk.add(b.run());
                        continue;
                    }
                    while (byBucket.size() <= b.bucket()) {
                        byBucket.add(new ArrayList<>());
                        onDisk.add(new ArrayList<>());
                    }
                    onDisk.get(b.bucket()).add(b.run());
                }
            }
            taggedBuckets = byBucket.size();
            for (final Batch b : untagged) {
                byBucket.add(List.of(b));
                onDisk.add(List.of());
            }
            for (final SpillRun r : untaggedOnDisk) {
                byBucket.add(List.of());
                onDisk.add(List.of(r));
            }
            resultByBucket = byBucket;
            bucketsOnDisk = onDisk;
            tables.clear();
            return;
        }
        final Groups merged = tables.isEmpty() ? new Groups() : tables.get(0);
        if (keys.isEmpty()) {
            merged.ensureGlobalGroup();
        }
        for (int t = 1; t < tables.size(); t++) {
            merged.merge(tables.get(t));
        }
        result = merged.batches();
        tables.clear();
    }

    /** The part of the aggregation this one runs. */
    public AggregationPhase phase() {
        return phase;
    }

    @Override
    public String toString() {
        return (phase == AggregationPhase.SINGLE ? "" : phase.name().toLowerCase(Locale.ROOT) + " ")
                + (partitioned ? "shuffle group " : "merge group ") + keys + " " + aggregates;
    }

    /**
     * {@link #mergePartition} of a level-0 partition, one partition at a time in the whole operator:
     * partitions grouped at once would share the budget, and one refused for what the others hold would
     * split again and again for nothing.
     */
    private void mergeOnePartitionAtATime(final List<SpillRun> runs, final BatchConsumer out) {
        final HashAggregate m = merger();
        synchronized (m) {
            mergePartition(runs, 0, out);
        }
    }

    /**
     * Groups the state rows of one spilled partition and hands the groups to {@code out}; when they do not
     * fit, splits them by the next bits of the key hash and groups each part in turn.
     */
    private void mergePartition(final List<SpillRun> runs, final int level, final BatchConsumer out) {
        final Groups groups = merger().new Groups();
        groups.level = level + 1;
        for (final SpillRun run : runs) {
            try (SpillReader reader = run.open()) {
                for (Batch b = reader.next(); b != null; b = reader.next()) {
                    groups.accept(b);
                }
            }
        }
        if (groups.partitions != null) {
            groups.spillTable();
            for (final List<SpillRun> part : groups.partitions.finish()) {
                if (!part.isEmpty()) {
                    mergePartition(part, level + 1, out);
                }
            }
            return;
        }
        final List<Batch> batches = phase == AggregationPhase.PARTIAL ? groups.stateBatches() : groups.batches();
        groups.release();
        for (final Batch b : batches) {
            out.accept(b);
        }
    }

    /** The groups: the merged tables' batches, or when the groups spilled, one morsel per partition. */
    private final class Output implements Source {
        @Override
        public RowType rowType() {
            return output;
        }

        @Override
        public int morselCount() {
            return spilled != null ? spilled.size() : result.size();
        }

        @Override
        public boolean ordered() {
            return false;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
                if (spilled != null) {
                    // One partition at a time: partitions grouped at once would share the budget, and one
                    // refused for what the others hold would split again and again for nothing.
                    mergeOnePartitionAtATime(spilled.get(morsel), out);
                } else {
                    out.accept(result.get(morsel));
                }
            };
        }

        @Override
        public String toString() {
            return "rows of the previous pipeline " + output.names();
        }
    }

    /** A shuffle group's groups: one morsel per bucket, tagged with it, from memory and from disk. */
    private final class BucketOutput implements Source {
        @Override
        public RowType rowType() {
            return output;
        }

        @Override
        public int morselCount() {
            return resultByBucket.size();
        }

        @Override
        public boolean ordered() {
            return false;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
                for (final Batch b : resultByBucket.get(morsel)) {
                    out.accept(b);
                }
                for (final SpillRun run : bucketsOnDisk.get(morsel)) {
                    try (SpillReader reader = run.open()) {
                        for (Batch b = reader.next(); b != null; b = reader.next()) {
                            out.accept(morsel < taggedBuckets ? b.withShuffleIdx(morsel) : b);
                        }
                    }
                }
            };
        }

        @Override
        public String toString() {
            return "buckets of " + output.names();
        }
    }

    /** A shuffle group's finished groups of one bucket. */
    private record Bucket(int bucket, List<Batch> batches) {
    }

    /** A shuffle group's finished groups of one bucket, written to disk. */
    private record SpilledBucket(int bucket, SpillRun run) {
    }

    /**
     * A worker's hash table of groups and one accumulator per aggregate. In a shuffle group the worker
     * takes whole buckets one after another: when a batch of another bucket comes, the table of the
     * last one is final and is sealed into its batches, and a fresh table takes the next.
     */
    public final class Groups implements BatchConsumer {
        private final KeyColumns keyColumns;
        private KeyTable table;
        private Accumulator[] accumulators;
        private final int[] ids = new int[Block.MAX_ROWS];
        private final GroupRuns runs = new GroupRuns();
        private int bucket = Batch.NO_SHUFFLE_IDX;
        private final List<Bucket> sealed = new ArrayList<>();
        /** A shuffle group's finished buckets written to disk. */
        private final List<SpilledBucket> sealedOnDisk = new ArrayList<>();
        /** Bytes reserved for the groups of {@link #sealed}. */
        private long sealedHeld;
        private boolean spillAfter;
        /** Bytes a group takes: its keys, its accumulators' states and its hash slot. */
        private final long bytesPerGroup;
        /** Groups of the current table already reserved. */
        private int accounted;
        /** Bytes of what the accumulators keep beside their groups (COUNT DISTINCT's values) already reserved. */
        private long accountedBeside;
        /** Where this worker's groups go once it was refused memory; null until then. */
        private SpillPartitions partitions;
        /** The level its partitions split at: 0 for a worker's table, more when re-grouping a partition. */
        private int level;
        /** The table's memory as other operators may ask for it: a worker's table that spills; else null. */
        private RevocableMemory revocable;

        Groups() {
            keyColumns = new KeyColumns(consumedKeys, consumed);
            long perGroup = 16 + 16L * aggregates.size();
            for (final DataType type : keyColumns.types()) {
                perGroup += switch (type.kind()) {
                    case INT32, DATE -> 4;
                    case STRING -> 24;
                    case DECIMAL128 -> 16;
                    default -> 8;
                };
            }
            bytesPerGroup = perGroup;
            reset();
        }

        private void reset() {
            // Rows clustered by the keys (a table stored in key order) need no hash slots while they ascend.
            table = new KeyTable(keyColumns.types(), true);
            accounted = 0;
            accumulators = new Accumulator[aggregates.size()];
            for (int a = 0; a < accumulators.length; a++) {
                accumulators[a] = aggregates.get(a).newAccumulator(input);
            }
        }

        /**
         * A shuffle group: ends the current bucket's table. Groups of untagged batches (an input whose
         * buckets nobody named) are sealed untagged, each batch a morsel of its own.
         */
        void seal() {
            if (partitions != null) {
                sealSpilled();
                return;
            }
            if (bucket == Batch.NO_SHUFFLE_IDX && table.size() == 0) {
                return;
            }
            sealedHeld += bytesPerGroup * accounted;
            final List<Batch> out = new ArrayList<>();
            for (final Batch b : batches()) {
                out.add(bucket == Batch.NO_SHUFFLE_IDX ? b : b.withShuffleIdx(bucket));
            }
            sealed.add(new Bucket(bucket, out));
            // The distinct values counted are gone with the table; its groups stay, as batches.
            memory.release(accountedBeside);
            accountedBeside = 0;
            bucket = Batch.NO_SHUFFLE_IDX;
            reset();
        }

        /**
         * Ends a bucket whose groups spilled: groups its partitions again, one at a time, into a file of the
         * bucket's groups.
         */
        private void sealSpilled() {
            spillTable();
            final List<List<SpillRun>> runs = partitions.finish();
            partitions = null;
            try (io.sluice.engine.spill.SpillWriter writer = memory.spillWriter()) {
                for (final List<SpillRun> partition : runs) {
                    if (!partition.isEmpty()) {
                        mergeOnePartitionAtATime(partition, writer::write);
                    }
                }
                sealedOnDisk.add(new SpilledBucket(bucket, memory.spilled(writer.finish())));
            }
            bucket = Batch.NO_SHUFFLE_IDX;
            reset();
        }

        /** Writes the buckets this worker finished to disk and gives back their memory. */
        private void spillSealed() {
            for (final Bucket b : sealed) {
                try (io.sluice.engine.spill.SpillWriter writer = memory.spillWriter()) {
                    for (final Batch batch : b.batches()) {
                        writer.write(batch);
                    }
                    sealedOnDisk.add(new SpilledBucket(b.bucket(), memory.spilled(writer.finish())));
                }
            }
            sealed.clear();
            releaseOwn(sealedHeld);
            sealedHeld = 0;
        }

        /** Reserves for the table's growth: a worker's revocable table asks nobody, as it spills when refused. */
        private boolean tryReserveOwn(final long bytes) {
            return revocable != null ? revocable.tryReserve(bytes) : memory.tryReserve(bytes);
        }

        private void releaseOwn(final long bytes) {
            if (revocable != null) {
                revocable.release(bytes);
            } else {
                memory.release(bytes);
            }
        }

        /** Another operator asks for the table's memory: its groups go to disk as on a refusal of its own. */
        private void revoke() {
            if (!sealed.isEmpty()) {
                spillSealed();
            }
            if (table.size() > 0) {
                if (partitions == null) {
                    partitions = new SpillPartitions(memory, keyRefs, stateType, level);
                }
                spillTable();
            }
        }

        /** Whether the worker's groups went to disk (on a refusal, or asked). */
        private boolean spilledYet() {
            if (revocable == null) {
                return partitions != null;
            }
            revocable.enter();
            try {
                return partitions != null;
            } finally {
                revocable.exit();
            }
        }

        /** The operator takes the table over to finish it: nobody asks it to spill any more. */
        private void endRevocable() {
            if (revocable != null) {
                revocable.close();
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
            final int n = batch.rowCount();
            if (partitioned && batch.shuffleIdx() != bucket) {
                if (bucket != Batch.NO_SHUFFLE_IDX || table.size() > 0) {
                    seal();
                }
                bucket = batch.shuffleIdx();
            }
            if (keys.isEmpty()) {
                ensureGlobalGroup();
            } else {
                keyColumns.evaluate(batch);
                table.findOrInsert(keyColumns, ids);
                if (table.size() > accounted) {
                    final long more = bytesPerGroup * (table.size() - accounted);
                    if (!spills()) {
                        memory.reserve(more);
                        accounted = table.size();
                    } else if (tryReserveOwn(more)) {
                        accounted = table.size();
                    } else if (!sealed.isEmpty() && spillSealedThenReserve(more)) {
                        accounted = table.size();
                    } else {
                        // The batch's new groups go to disk with the table, once its rows are added.
                        spillAfter = true;
                    }
                }
                for (final Accumulator a : accumulators) {
                    a.ensureCapacity(table.size());
                }
            }
            if (phase == AggregationPhase.FINAL) {
                if (batch.columnCount() != consumed.size()) {
                    throw new IllegalArgumentException("a final aggregation reads state rows " + consumed.names()
                            + ", got a batch of " + batch.columnCount() + " columns: feed it the rows of the "
                            + "partial aggregation with the same input, keys and aggregates");
                }
                final int[] groups = keys.isEmpty() ? Accumulator.GROUP_ZERO : ids;
                for (int a = 0; a < accumulators.length; a++) {
                    accumulators[a].mergeState(batch, stateColumns[a], groups, n);
                }
            } else if (keys.isEmpty()) {
                for (final Accumulator a : accumulators) {
                    a.updateSingle(batch, n);
                }
            } else if (table.size() <= GroupRuns.MAX_GROUPS && n >= RUNS_MIN_ROWS) {
                runs.group(ids, n, table.size());
                for (final Accumulator a : accumulators) {
                    a.update(batch, ids, n, runs);
                }
            } else {
                for (final Accumulator a : accumulators) {
                    a.update(batch, ids, n);
                }
            }
            reserveBeside();
            if (spillAfter) {
                spillAfter = false;
                if (partitions == null) {
                    partitions = new SpillPartitions(memory, keyRefs, stateType, level);
                }
                spillTable();
            }
        }

        /**
         * Reserves what the accumulators keep beside their groups (the distinct values of a COUNT DISTINCT, which does
         * not spill): past the budget, the named error.
         */
        private void reserveBeside() {
            long beside = 0;
            for (final Accumulator a : accumulators) {
                beside += a.heldBytes();
            }
            if (beside > accountedBeside) {
                memory.reserve(beside - accountedBeside);
                accountedBeside = beside;
            }
        }

        /** Writes the buckets finished to disk first, then reserves again. */
        private boolean spillSealedThenReserve(final long more) {
            spillSealed();
            return tryReserveOwn(more);
        }

        /** Writes the table's groups as state rows to their partitions, gives back their memory, and starts afresh. */
        void spillTable() {
            if (table.size() > 0) {
                for (final Batch b : stateBatches()) {
                    partitions.add(b);
                }
            }
            release();
        }

        /** Gives back the memory of the table and starts a new one. */
        void release() {
            releaseOwn(bytesPerGroup * accounted);
            memory.release(accountedBeside);
            accountedBeside = 0;
            reset();
        }

        void ensureGlobalGroup() {
            if (table.size() == 0) {
                keyColumns.constantRow();
                table.findOrInsert(keyColumns, ids);
                for (final Accumulator a : accumulators) {
                    a.ensureCapacity(1);
                }
            }
        }

        void merge(final Groups other) {
            final KeyColumns otherKeys = new KeyColumns(keyRefs, keyType);
            for (int from = 0; from < other.table.size(); from += Block.MAX_ROWS) {
                final int to = Math.min(other.table.size(), from + Block.MAX_ROWS);
                if (keys.isEmpty()) {
                    ensureGlobalGroup();
                    ids[0] = 0;
                } else {
                    final ColumnVector[] keyVectors = new ColumnVector[keys.size()];
                    for (int k = 0; k < keyVectors.length; k++) {
                        keyVectors[k] = other.table.keyVector(k, from, to);
                    }
                    otherKeys.evaluate(Batch.of(keyVectors));
                    table.findOrInsert(otherKeys, ids);
                }
                for (int a = 0; a < accumulators.length; a++) {
                    accumulators[a].ensureCapacity(table.size());
                    accumulators[a].merge(other.accumulators[a], from, ids, to - from);
                }
            }
        }

        /** The groups as state rows: the key columns, then each aggregate's state columns. */
        List<Batch> stateBatches() {
            final List<Batch> out = new ArrayList<>();
            for (int from = 0; from < table.size(); from += Block.MAX_ROWS) {
                final int to = Math.min(table.size(), from + Block.MAX_ROWS);
                final ColumnVector[] columns = new ColumnVector[stateType.size()];
                for (int k = 0; k < keys.size(); k++) {
                    columns[k] = table.keyVector(k, from, to);
                }
                for (int a = 0; a < accumulators.length; a++) {
                    final ColumnVector[] state = accumulators[a].outputState(from, to);
                    System.arraycopy(state, 0, columns, stateColumns[a], state.length);
                }
                out.add(Batch.of(columns));
            }
            return out;
        }

        List<Batch> batches() {
            final List<Batch> out = new ArrayList<>();
            for (int from = 0; from < table.size(); from += Block.MAX_ROWS) {
                final int to = Math.min(table.size(), from + Block.MAX_ROWS);
                final ColumnVector[] columns = new ColumnVector[output.size()];
                for (int k = 0; k < keys.size(); k++) {
                    columns[k] = table.keyVector(k, from, to);
                }
                for (int a = 0; a < accumulators.length; a++) {
                    if (phase == AggregationPhase.PARTIAL) {
                        final ColumnVector[] state = accumulators[a].outputState(from, to);
                        System.arraycopy(state, 0, columns, stateColumns[a], state.length);
                    } else {
                        columns[keys.size() + a] = accumulators[a].output(from, to);
                    }
                }
                out.add(Batch.of(columns));
            }
            return out;
        }
    }
}
