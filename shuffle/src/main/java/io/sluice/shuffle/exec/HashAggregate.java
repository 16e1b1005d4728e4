package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.DataType;
import io.sluice.shuffle.expr.Expr;
import io.sluice.shuffle.expr.NamedExpr;
import io.sluice.shuffle.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Block;
import io.sluice.storage.ColumnVector;
import java.util.ArrayList;
import java.util.List;

/**
 * Hash aggregation. As a merge group (seed 003), each worker aggregates its morsels into a
 * partial hash table (its local sink state), and {@link #finish()} merges the partial tables into
 * the final one; as a shuffle group, each morsel is a whole bucket of a shuffle on a group key, so
 * every worker's table is final and {@link #finish()} only concatenates them. Either way the
 * groups come out as batches of key columns followed by aggregate columns. Without group keys it
 * yields exactly one row.
 */
public final class HashAggregate implements Sink<HashAggregate.Partial> {
    private final RowType input;
    private final List<NamedExpr> keys;
    private final List<Aggregate> aggregates;
    private final RowType output;
    private final RowType keyType;
    private final boolean partitioned;
    private final List<Partial> partials = new ArrayList<>();
    private List<Batch> result;

    /** A merge group: each worker aggregates partially, {@link #finish()} merges the partial tables. */
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
        this.input = input;
        this.partitioned = partitioned;
        if (partitioned && keys.isEmpty()) {
            throw new IllegalArgumentException("a shuffle group needs group keys: aggregate without keys as a merge group");
        }
        this.keys = List.copyOf(keys);
        this.aggregates = List.copyOf(aggregates);
        if (keys.isEmpty() && aggregates.isEmpty()) {
            throw new IllegalArgumentException("an aggregation needs group keys or aggregates");
        }
        final List<String> names = new ArrayList<>();
        final List<DataType> types = new ArrayList<>();
        for (final NamedExpr k : keys) {
            names.add(k.name());
            types.add(k.expr().bind(input).type());
        }
        this.keyType = new RowType(names, types);
        for (final Aggregate a : aggregates) {
            names.add(a.name());
            types.add(a.outputType(input));
        }
        this.output = new RowType(names, types);
    }

    /** Key columns, then one column per aggregate. */
    public RowType outputType() {
        return output;
    }

    /** The groups, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(output, () -> result, false);
    }

    @Override
    public Partial createLocal() {
        return new Partial();
    }

    @Override
    public synchronized void combine(final Partial local) {
        partials.add(local);
    }

    @Override
    public void finish() {
        if (partitioned) {
            final List<Batch> all = new ArrayList<>();
            for (final Partial p : partials) {
                all.addAll(p.batches());
            }
            result = all;
            partials.clear();
            return;
        }
        final Partial merged = partials.isEmpty() ? new Partial() : partials.get(0);
        if (keys.isEmpty()) {
            merged.ensureGlobalGroup();
        }
        for (int p = 1; p < partials.size(); p++) {
            merged.merge(partials.get(p));
        }
        result = merged.batches();
        partials.clear();
    }

    @Override
    public String toString() {
        return (partitioned ? "shuffle group " : "merge group ") + keys + " " + aggregates;
    }

    /** A worker's partial aggregation: its hash table of groups and one accumulator per aggregate. */
    public final class Partial implements BatchConsumer {
        private final KeyColumns keyColumns;
        private final KeyTable table;
        private final Accumulator[] accumulators;
        private final int[] ids = new int[Block.MAX_ROWS];

        Partial() {
            final List<Expr> exprs = new ArrayList<>();
            for (final NamedExpr k : keys) {
                exprs.add(k.expr());
            }
            keyColumns = new KeyColumns(exprs, input);
            table = new KeyTable(keyColumns.types());
            accumulators = new Accumulator[aggregates.size()];
            for (int a = 0; a < accumulators.length; a++) {
                accumulators[a] = aggregates.get(a).newAccumulator(input);
            }
        }

        @Override
        public void accept(final Batch batch) {
            final int n = batch.rowCount();
            if (keys.isEmpty()) {
                ensureGlobalGroup();
                for (final Accumulator a : accumulators) {
                    a.updateSingle(batch, n);
                }
                return;
            }
            keyColumns.evaluate(batch);
            table.findOrInsert(keyColumns, ids);
            for (final Accumulator a : accumulators) {
                a.ensureCapacity(table.size());
                a.update(batch, ids, n);
            }
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

        void merge(final Partial other) {
            final List<Expr> refs = new ArrayList<>();
            for (final NamedExpr k : keys) {
                refs.add(Expr.col(k.name()));
            }
            final KeyColumns otherKeys = new KeyColumns(refs, keyType);
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

        List<Batch> batches() {
            final List<Batch> out = new ArrayList<>();
            for (int from = 0; from < table.size(); from += Block.MAX_ROWS) {
                final int to = Math.min(table.size(), from + Block.MAX_ROWS);
                final ColumnVector[] columns = new ColumnVector[keys.size() + accumulators.length];
                for (int k = 0; k < keys.size(); k++) {
                    columns[k] = table.keyVector(k, from, to);
                }
                for (int a = 0; a < accumulators.length; a++) {
                    columns[keys.size() + a] = accumulators[a].output(from, to);
                }
                out.add(Batch.of(columns));
            }
            return out;
        }
    }
}
