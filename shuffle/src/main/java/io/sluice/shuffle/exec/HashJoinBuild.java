package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.DataType;
import io.sluice.shuffle.expr.Expr;
import io.sluice.shuffle.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Block;
import io.sluice.storage.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The build side of a hash join: workers collect the build rows, and {@link #finish()} puts every
 * distinct key into a {@link KeyTable} whose id heads a chain of the key's rows ({@code next}),
 * and concatenates each build column into one vector indexed by build row. The probe pipeline
 * starts only after this sink finished.
 */
public final class HashJoinBuild implements Sink<HashJoinBuild.Rows> {
    private final RowType input;
    private final List<Expr> keys;
    private final List<Rows> collected = new ArrayList<>();
    private KeyTable table;
    private int[] head;
    private int[] next;
    private ColumnVector[] columns;

    public HashJoinBuild(final RowType input, final List<Expr> keys) {
        this.input = input;
        this.keys = List.copyOf(keys);
        new KeyColumns(keys, input);
    }

    /** The build columns. */
    public RowType rowType() {
        return input;
    }

    /** The build key expressions. */
    List<Expr> keys() {
        return keys;
    }

    /** Key types, for checking that probe keys match. */
    DataType[] keyTypes() {
        return new KeyColumns(keys, input).types();
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public synchronized void combine(final Rows local) {
        collected.add(local);
    }

    @Override
    public void finish() {
        final KeyColumns keyColumns = new KeyColumns(keys, input);
        table = new KeyTable(keyColumns.types());
        int total = 0;
        for (final Rows r : collected) {
            for (final Batch b : r.batches) {
                total = Math.addExact(total, b.rowCount());
            }
        }
        next = new int[total];
        head = new int[1024];
        Arrays.fill(head, -1);
        final int[] ids = new int[Block.MAX_ROWS];
        final List<List<ColumnVector>> parts = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            parts.add(new ArrayList<>());
        }
        int base = 0;
        for (final Rows r : collected) {
            for (final Batch b : r.batches) {
                keyColumns.evaluate(b);
                table.findOrInsert(keyColumns, ids);
                if (table.size() > head.length) {
                    final int old = head.length;
                    head = Arrays.copyOf(head, Math.max(table.size(), old * 2));
                    Arrays.fill(head, old, head.length, -1);
                }
                for (int i = 0; i < b.rowCount(); i++) {
                    final int row = base + i;
                    next[row] = head[ids[i]];
                    head[ids[i]] = row;
                }
                for (int c = 0; c < input.size(); c++) {
                    parts.get(c).add(b.column(c));
                }
                base += b.rowCount();
            }
        }
        columns = new ColumnVector[input.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = parts.get(c).isEmpty() ? Vectors.empty(input.type(c).storage())
                    : Vectors.concat(parts.get(c), input.type(c).storage());
        }
        collected.clear();
    }

    KeyTable table() {
        return table;
    }

    /** The first build row of a key id (-1: none); rows of the same key follow through {@link #next}. */
    int head(final int id) {
        return head[id];
    }

    int[] next() {
        return next;
    }

    ColumnVector column(final int c) {
        return columns[c];
    }

    @Override
    public String toString() {
        return "hash join build on " + keys;
    }

    /** A worker's collected build batches. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();

        @Override
        public void accept(final Batch batch) {
            batches.add(batch);
        }
    }
}
