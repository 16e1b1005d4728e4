package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.Expr;
import io.sluice.shuffle.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Block;
import io.sluice.storage.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One built join hash table: every distinct build key in a {@link KeyTable} whose id heads a
 * chain of the key's rows ({@link #next()}), and each build column concatenated into one vector
 * indexed by build row. A broadcast join has one; a shuffle join one per bucket.
 */
public final class JoinHashTable {
    private final KeyTable table;
    private final int[] head;
    private final int[] next;
    private final ColumnVector[] columns;

    private JoinHashTable(final KeyTable table, final int[] head, final int[] next, final ColumnVector[] columns) {
        this.table = table;
        this.head = head;
        this.next = next;
        this.columns = columns;
    }

    /** Builds a table over build batches with the given columns, hashed on the key expressions. */
    static JoinHashTable build(final RowType input, final List<Expr> keys, final List<Batch> batches) {
        final KeyColumns keyColumns = new KeyColumns(keys, input);
        final KeyTable table = new KeyTable(keyColumns.types());
        int total = 0;
        for (final Batch b : batches) {
            total = Math.addExact(total, b.rowCount());
        }
        final int[] next = new int[total];
        int[] head = new int[1024];
        Arrays.fill(head, -1);
        final int[] ids = new int[Block.MAX_ROWS];
        final List<List<ColumnVector>> parts = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            parts.add(new ArrayList<>());
        }
        int base = 0;
        for (final Batch b : batches) {
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
        final ColumnVector[] columns = new ColumnVector[input.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = parts.get(c).isEmpty() ? Vectors.empty(input.type(c).storage())
                    : Vectors.concat(parts.get(c), input.type(c).storage());
        }
        return new JoinHashTable(table, head, next, columns);
    }

    KeyTable table() {
        return table;
    }

    /** The first build row of a key id (-1: none); rows of the same key follow through {@link #next()}. */
    int head(final int id) {
        return head[id];
    }

    int[] next() {
        return next;
    }

    ColumnVector column(final int c) {
        return columns[c];
    }
}
