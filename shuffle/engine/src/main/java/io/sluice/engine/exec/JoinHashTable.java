package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One built join hash table: every build row reachable from its key through a chain
 * ({@link #next()}), and each build column concatenated into one vector indexed by build row. A
 * broadcast join has one; a shuffle join one per bucket.
 *
 * <p>A single integer key whose build values span a small range ({@link #DENSE_FACTOR} times the
 * build rows or less, up to {@link #DENSE_MAX} values; for a larger build, {@link #LARGE_DENSE_FACTOR}
 * times its rows) is looked up directly: the chain head of value {@code v} sits at
 * {@code v - min} of an array, with no hashing and one memory access per probe row. Any other key
 * goes through a {@link KeyTable} whose ids index the chain heads.
 *
 * <p>A key with a NULL in any column equals nothing (SQL's {@code =}): a build row with one is in
 * no chain, a probe row with one finds no build row. The table counts its build rows and whether
 * one had a NULL key, which a null-aware anti join (NOT IN) needs.
 */
public final class JoinHashTable {
    /** The largest value range per build row that the direct lookup accepts. */
    static final int DENSE_FACTOR = 64;
    /** The direct lookup array exceeds this many entries only for a large build (see {@link #LARGE_DENSE_FACTOR}). */
    static final long DENSE_MAX = 1L << 23;
    /**
     * The value range per build row a direct lookup beyond {@link #DENSE_MAX} entries accepts: 32 bytes of
     * array per build row, less than a {@link KeyTable} of the same keys takes. A large build of keys in
     * ascending order (a table stored by its key) probed in that order then reads its array front to back
     * instead of hashing each probe to a cache line of its own.
     */
    static final int LARGE_DENSE_FACTOR = 8;
    /** No direct lookup array is longer than this (Java's array limit, less a margin). */
    static final long DENSE_ARRAY_LIMIT = Integer.MAX_VALUE - 16;

    private final KeyTable table;
    /** Per key (slot or table id), its chain's first build row plus one; 0: no row (a new array needs no fill). */
    private final int[] head;
    private final long min;
    private final int[] next;
    private final ColumnVector[] columns;
    private final boolean unique;
    /**
     * Whether build row {@code r} holds key {@code min + r} for every row, every key once (a whole
     * dimension table stored by its key): a probe finds its row without reading {@link #head}.
     */
    private final boolean identity;
    private final boolean nullKey;
    /** Per build row, whether a probe row matched it (a right semi or anti join); made on first use. */
    private boolean[] marks;

    private JoinHashTable(final KeyTable table, final int[] head, final long min, final int[] next,
                          final ColumnVector[] columns, final boolean nullKey, final boolean identity) {
        this.nullKey = nullKey;
        this.identity = identity;
        this.table = table;
        this.head = head;
        this.min = min;
        this.next = next;
        this.columns = columns;
        boolean noChains = true;
        for (final int n : next) {
            if (n >= 0) {
                noChains = false;
                break;
            }
        }
        this.unique = noChains;
    }

    /** Whether build row {@code r} holds key {@code min + r}, every key once ({@link #identity}). */
    boolean identity() {
        return identity;
    }

    /** Build rows, those with a NULL key included. */
    int rows() {
        return next.length;
    }

    /** Whether some build row has a NULL in a key column (and so is in no chain). */
    boolean sawNullKey() {
        return nullKey;
    }

    /** Whether every key has one build row: {@link #next()} is -1 throughout. */
    boolean unique() {
        return unique;
    }

    /** Bytes the table adds to its rows' own, per row: a chain link and about two head slots. */
    static long bytesPerRow() {
        return 12;
    }

    /** Builds a table over build batches with the given columns, hashed on the key expressions. */
    static JoinHashTable build(final RowType input, final List<Expr> keys, final List<Batch> batches) {
        return build(input, keys, batches, true);
    }

    /**
     * Builds a table over build batches, keeping their columns only when {@code withColumns} (a
     * semi or anti join without an extra condition reads none: it only asks whether a key exists).
     */
    static JoinHashTable build(final RowType input, final List<Expr> keys, final List<Batch> batches,
                               final boolean withColumns) {
        final KeyColumns keyColumns = new KeyColumns(keys, input);
        int total = 0;
        for (final Batch b : batches) {
            total = Math.addExact(total, b.rowCount());
        }
        final int[] next = new int[total];
        final DataType[] types = keyColumns.types();
        final boolean integerKey = types.length == 1 && types[0].kind() != DataType.Kind.STRING && total > 0;
        final List<Batch> ordered = integerKey ? inKeyOrder(keyColumns, batches) : batches;
        final ColumnVector[] columns = withColumns ? concatColumns(input, ordered) : null;
        if (integerKey) {
            final JoinHashTable dense = buildDense(keyColumns, ordered, total, next, columns);
            if (dense != null) {
                return dense;
            }
        }
        final KeyTable table = new KeyTable(types);
        int[] head = new int[1024];
        final int[] ids = new int[Block.MAX_ROWS];
        int base = 0;
        boolean nullKey = false;
        for (final Batch b : ordered) {
            keyColumns.evaluate(b);
            table.findOrInsert(keyColumns, ids);
            if (table.size() > head.length) {
                final int old = head.length;
                head = Arrays.copyOf(head, Math.max(table.size(), old * 2));
            }
            final boolean anyNull = keyColumns.anyNull() != null;
            nullKey |= anyNull;
            for (int i = 0; i < b.rowCount(); i++) {
                final int row = base + i;
                if (anyNull && keyColumns.hasNull(i)) {
                    next[row] = -1;
                    continue;
                }
                next[row] = head[ids[i]] - 1;
                head[ids[i]] = row + 1;
            }
            base += b.rowCount();
        }
        return new JoinHashTable(table, head, 0, next, columns, nullKey, false);
    }

    /**
     * The batches ordered by their first key when each one's keys ascend strictly and, so ordered, the
     * batches' key ranges follow one another: the blocks of a table stored by its key arrive in whatever
     * order the scan's workers read them, and in key order their rows make the direct table an identity
     * ({@link #identity}). Otherwise the batches as they are.
     */
    private static List<Batch> inKeyOrder(final KeyColumns keyColumns, final List<Batch> batches) {
        if (batches.size() < 2) {
            return batches;
        }
        final long[] first = new long[batches.size()];
        final long[] last = new long[batches.size()];
        for (int b = 0; b < first.length; b++) {
            final Batch batch = batches.get(b);
            final int n = batch.rowCount();
            if (n == 0) {
                return batches;
            }
            keyColumns.evaluateUnhashed(batch);
            if (keyColumns.anyNull() != null) {
                return batches;
            }
            final long[] v = keyColumns.longs[0];
            for (int i = 1; i < n; i++) {
                if (v[i] <= v[i - 1]) {
                    return batches;
                }
            }
            first[b] = v[0];
            last[b] = v[n - 1];
        }
        final Integer[] order = new Integer[first.length];
        for (int b = 0; b < order.length; b++) {
            order[b] = b;
        }
        Arrays.sort(order, (a, b) -> Long.compare(first[a], first[b]));
        final List<Batch> ordered = new ArrayList<>(order.length);
        for (int b = 0; b < order.length; b++) {
            if (b > 0 && first[order[b]] <= last[order[b - 1]]) {
                return batches;
            }
            ordered.add(batches.get(order[b]));
        }
        return ordered;
    }

    /** The direct table of a single integer key, or null when its values span too wide a range. */
    private static JoinHashTable buildDense(final KeyColumns keyColumns, final List<Batch> batches, final int total,
                                            final int[] next, final ColumnVector[] columns) {
        final long[] values = new long[total];
        final boolean[] isNull = new boolean[total];
        boolean nullKey = false;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        int base = 0;
        for (final Batch b : batches) {
            final int n = b.rowCount();
            keyColumns.evaluateUnhashed(b);
            final long[] v = keyColumns.longs[0];
            final long[] nulls = keyColumns.anyNull();
            for (int i = 0; i < n; i++) {
                final long x = v[i];
                values[base + i] = x;
                if (nulls != null && NullMask.isNull(nulls, i)) {
                    isNull[base + i] = true;
                    nullKey = true;
                    continue;
                }
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            base += n;
        }
        if (lo > hi) {
            // Every build key is NULL: a one-slot table no probe value reaches but lo itself, whose slot is empty.
            lo = 0;
            hi = 0;
        }
        if (hi - lo < 0 || hi - lo >= denseLimit(total)) {
            return null;
        }
        final int[] head = new int[(int) (hi - lo + 1)];
        boolean identity = !nullKey && head.length == total;
        for (int row = 0; row < total; row++) {
            if (isNull[row]) {
                next[row] = -1;
                continue;
            }
            final int slot = (int) (values[row] - lo);
            identity &= slot == row;
            next[row] = head[slot] - 1;
            head[slot] = row + 1;
        }
        return new JoinHashTable(null, head, lo, next, columns, nullKey, identity);
    }

    /** The widest value range (max - min, exclusive) a direct lookup of {@code total} build rows accepts. */
    static long denseLimit(final int total) {
        final long small = Math.min(DENSE_MAX, (long) DENSE_FACTOR * total + 1024);
        return Math.min(DENSE_ARRAY_LIMIT, Math.max(small, (long) LARGE_DENSE_FACTOR * total));
    }

    private static ColumnVector[] concatColumns(final RowType input, final List<Batch> batches) {
        final List<List<ColumnVector>> parts = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            parts.add(new ArrayList<>());
        }
        for (final Batch b : batches) {
            for (int c = 0; c < input.size(); c++) {
                parts.get(c).add(b.column(c));
            }
        }
        final ColumnVector[] columns = new ColumnVector[input.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = parts.get(c).isEmpty() ? Vectors.empty(input.type(c).storage())
                    : Vectors.concat(parts.get(c), input.type(c).storage());
        }
        return columns;
    }

    /** Whether keys are looked up directly by value ({@link #firstRows(long[], int, int[])}), not hashed. */
    boolean direct() {
        return table == null;
    }

    /**
     * The first build row of each probe row's key (-1: none), the rest following through
     * {@link #next()}. {@code keys} must be evaluated, hashed unless the table is {@link #direct()}.
     */
    void firstRows(final KeyColumns keys, final int[] rows) {
        final int n = keys.count;
        if (identity) {
            final long[] v = keys.longs[0];
            final long range = head.length;
            for (int i = 0; i < n; i++) {
                final long slot = v[i] - min;
                rows[i] = slot >= 0 && slot < range ? (int) slot : -1;
            }
        } else if (table == null) {
            final long[] v = keys.longs[0];
            final long range = head.length;
            for (int i = 0; i < n; i++) {
                final long slot = v[i] - min;
                rows[i] = slot >= 0 && slot < range ? head[(int) slot] - 1 : -1;
            }
        } else {
            table.find(keys, rows);
            for (int i = 0; i < n; i++) {
                final int id = rows[i];
                rows[i] = id < 0 ? -1 : head[id] - 1;
            }
        }
        final long[] nulls = keys.anyNull();
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                rows[i] = NullMask.isNull(nulls, i) ? -1 : rows[i];
            }
        }
    }

    int[] next() {
        return next;
    }

    /**
     * One flag per build row for the probes of a right semi or anti join to set when a probe row
     * matches it; the same array for every caller. Workers set flags concurrently (only ever to true);
     * they are read after every probe finished.
     */
    synchronized boolean[] marks() {
        if (marks == null) {
            marks = new boolean[next.length];
        }
        return marks;
    }

    /**
     * The build rows (all columns) whose mark is {@code marked}, in build-row order, in batches of at
     * most {@link Block#MAX_ROWS} rows; no batch when none is.
     */
    List<Batch> rowsMarked(final boolean marked) {
        final boolean[] m = marks();
        final List<Batch> out = new ArrayList<>();
        final int[] rows = new int[Math.min(Block.MAX_ROWS, Math.max(1, m.length))];
        int count = 0;
        for (int r = 0; r <= m.length; r++) {
            if (r < m.length && m[r] == marked) {
                rows[count++] = r;
            }
            if (count > 0 && (count == rows.length || r == m.length)) {
                final ColumnVector[] gathered = new ColumnVector[columns.length];
                for (int c = 0; c < columns.length; c++) {
                    gathered[c] = Vectors.gatherPresent(columns[c], rows, count);
                }
                out.add(Batch.of(gathered));
                count = 0;
            }
        }
        return out;
    }

    ColumnVector column(final int c) {
        if (columns == null) {
            throw new IllegalStateException("this join table was built without its columns (a semi or anti join's)");
        }
        return columns[c];
    }
}
