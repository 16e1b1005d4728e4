package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import java.util.Arrays;

/**
 * An open-addressing hash table of distinct keys over primitive arrays, giving each key a dense
 * id (0, 1, 2, ...) in insertion order. Keys are one or more columns of longs or strings: a slot
 * is matched by the full 64-bit hash first, then column by column. A NULL key value is a value of
 * its own, equal to NULL only, never to 0 or '' (SQL's GROUP BY; a join drops NULL keys before it
 * looks them up), and comes out of {@link #keyVector} as NULL. Used by aggregation (id =
 * group) and by the join build (id = head of the key's row chain). Inserting is not
 * thread-safe; {@link #find} only reads.
 */
final class KeyTable {
    private static final int INITIAL_CAPACITY = 1024;
    /** The most dictionary code combinations a batch's lookups are memoized over. */
    private static final int MEMO_MAX = 1024;
    private static final int UNKNOWN = Integer.MIN_VALUE;

    private final DataType[] types;
    private final boolean[] isString;
    private int[] slots;
    private int mask;
    private int size;
    private long[] hashOf;
    private final long[][] longKeys;
    private final int[][] stringStart;
    private final int[][] stringLength;
    /** Per key column, whether each id's value is NULL; null until the column's first NULL. */
    private final boolean[][] keyNull;
    private byte[] arena = new byte[0];
    private int arenaSize;
    private final int[] memo = new int[MEMO_MAX];
    private final int[] combined = new int[Block.MAX_ROWS];
    /**
     * Whether every key so far came after the one before it in the order of their long values, key
     * column by key column: then the ids are in key order, a row whose key equals the last id's takes it
     * and a greater one is new, with no slot to find (a streaming aggregation over sorted runs). The
     * slots are filled once, when a key comes out of order or with a NULL; never for string keys.
     */
    private boolean ascending;

    KeyTable(final DataType[] types) {
        this(types, false);
    }

    /**
     * @param appendAscending whether to start without slots while keys come in ascending order (a group-by
     *                        over rows clustered by its keys); the table's lookups ({@link #find}) then
     *                        search the sorted keys until a key out of order ends that
     */
    KeyTable(final DataType[] types, final boolean appendAscending) {
        this.types = types.clone();
        this.isString = new boolean[types.length];
        this.longKeys = new long[types.length][];
        this.stringStart = new int[types.length][];
        this.stringLength = new int[types.length][];
        this.keyNull = new boolean[types.length][];
        for (int k = 0; k < types.length; k++) {
            isString[k] = types[k].kind() == DataType.Kind.STRING;
            if (isString[k]) {
                stringStart[k] = new int[INITIAL_CAPACITY];
                stringLength[k] = new int[INITIAL_CAPACITY];
            } else {
                longKeys[k] = new long[INITIAL_CAPACITY];
            }
        }
        this.hashOf = new long[INITIAL_CAPACITY];
        this.slots = new int[INITIAL_CAPACITY * 2];
        this.mask = slots.length - 1;
        boolean numeric = types.length > 0;
        for (final boolean string : isString) {
            numeric &= !string;
        }
        this.ascending = appendAscending && numeric;
    }

    /** Number of distinct keys. */
    int size() {
        return size;
    }

    /** Bytes of the string keys kept. */
    long stringBytes() {
        return arenaSize;
    }

    /** The key column types. */
    DataType[] types() {
        return types.clone();
    }

    /** The id of each row's key, inserting keys not seen before. */
    void findOrInsert(final KeyColumns keys, final int[] ids) {
        final int n = keys.count;
        int from = 0;
        if (ascending) {
            from = appendAscending(keys, ids);
            if (from == n) {
                return;
            }
            ascending = false;
            fillSlots();
        }
        final int combos = from == 0 ? combinedCodes(keys) : 0;
        if (combos > 0) {
            Arrays.fill(memo, 0, combos, UNKNOWN);
            for (int i = 0; i < n; i++) {
                final int c = combined[i];
                int id = memo[c];
                if (id == UNKNOWN) {
                    id = findOrInsertRow(keys, i);
                    memo[c] = id;
                }
                ids[i] = id;
            }
            return;
        }
        // Rows clustered by the key (a table stored in key order, a join's output in probe order) repeat
        // the previous row's key: those take its id without a lookup.
        int id = -1;
        for (int i = from; i < n; i++) {
            id = i > from && sameAsPrevious(keys, i) ? id : findOrInsertRow(keys, i);
            ids[i] = id;
        }
    }

    /**
     * While the rows' keys ascend from the last id's, gives each its id (appending the new ones) and
     * returns the first row that does not (the row count when all do, 0 when the batch has a NULL key).
     */
    private int appendAscending(final KeyColumns keys, final int[] ids) {
        for (int k = 0; k < types.length; k++) {
            if (keys.nulls[k] != null) {
                return 0;
            }
        }
        final int n = keys.count;
        if (types.length == 1) {
            return appendAscending(keys.longs[0], keys.hashes, ids, n);
        }
        for (int i = 0; i < n; i++) {
            final int order = size == 0 ? 1 : compareToLast(keys, i);
            if (order < 0) {
                return i;
            }
            if (order > 0) {
                store(keys, i, keys.hashes[i]);
            }
            ids[i] = size - 1;
        }
        return n;
    }

    /** As {@link #appendAscending(KeyColumns, int[])} for one key column without NULLs, its last key in a local. */
    private int appendAscending(final long[] values, final long[] hashes, final int[] ids, final int n) {
        int id = size - 1;
        long last = id < 0 ? 0 : longKeys[0][id];
        for (int i = 0; i < n; i++) {
            final long key = values[i];
            if (id < 0 || key > last) {
                id = size;
                if (id == hashOf.length) {
                    growEntries();
                }
                hashOf[id] = hashes[i];
                longKeys[0][id] = key;
                size = id + 1;
                last = key;
            } else if (key < last) {
                return i;
            }
            ids[i] = id;
        }
        return n;
    }

    /** The order of a row's key against the last id's, by long value, key column by key column. */
    private int compareToLast(final KeyColumns keys, final int row) {
        final int last = size - 1;
        for (int k = 0; k < types.length; k++) {
            final int order = Long.compare(keys.longs[k][row], longKeys[k][last]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /** The id of a row's key among ids in ascending key order, or -1: a binary search. */
    private int searchAscending(final KeyColumns keys, final int row) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            int order = 0;
            for (int k = 0; k < types.length && order == 0; k++) {
                order = Long.compare(longKeys[k][mid], keys.longs[k][row]);
            }
            if (order == 0) {
                return mid;
            }
            if (order < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -1;
    }

    /** Whether row {@code row} (1 or more) of the keys has the key of the row before it. */
    private boolean sameAsPrevious(final KeyColumns keys, final int row) {
        if (keys.hashes[row] != keys.hashes[row - 1]) {
            return false;
        }
        for (int k = 0; k < types.length; k++) {
            final long[] nulls = keys.nulls[k];
            if (nulls != null && NullMask.isNull(nulls, row) != NullMask.isNull(nulls, row - 1)) {
                return false;
            }
            if (nulls != null && NullMask.isNull(nulls, row)) {
                continue;
            }
            if (isString[k]) {
                final StringVector s = keys.strings[k];
                if (!Vectors.sameBytes(s.bytes(), s.offset(row), s.length(row), s.bytes(), s.offset(row - 1),
                        s.length(row - 1))) {
                    return false;
                }
            } else if (keys.longs[k][row] != keys.longs[k][row - 1]) {
                return false;
            }
        }
        return true;
    }

    private int findOrInsertRow(final KeyColumns keys, final int i) {
        final long h = keys.hashes[i];
        int slot = (int) h & mask;
        while (true) {
            final int entry = slots[slot];
            if (entry == 0) {
                return insert(keys, i, h, slot);
            }
            final int id = entry - 1;
            if (hashOf[id] == h && sameKey(id, keys, i)) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * The id of each row's key, or -1 where the key is absent. Only reads the table, so probes on
     * several threads may share one.
     */
    void find(final KeyColumns keys, final int[] ids) {
        final int n = keys.count;
        for (int i = 0; i < n; i++) {
            ids[i] = findRow(keys, i);
        }
    }

    private int findRow(final KeyColumns keys, final int i) {
        if (ascending) {
            return anyNullAt(keys, i) ? -1 : searchAscending(keys, i);
        }
        final long h = keys.hashes[i];
        int slot = (int) h & mask;
        while (true) {
            final int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            final int id = entry - 1;
            if (hashOf[id] == h && sameKey(id, keys, i)) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * When every key column is a dictionary-encoded string and the dictionaries allow few code
     * combinations, writes each row's combination to {@link #combined} and returns their number:
     * rows with the same codes have the same key, so each combination is looked up once per batch.
     * Returns 0 otherwise.
     */
    private int combinedCodes(final KeyColumns keys) {
        long combos = 1;
        for (int k = 0; k < types.length; k++) {
            // A NULL row holds some code of the dictionary, so its codes do not tell its key.
            if (!isString[k] || !keys.strings[k].isDictionary() || keys.nulls[k] != null) {
                return 0;
            }
            combos *= Math.max(1, keys.strings[k].dictionary().rowCount());
            if (combos > MEMO_MAX) {
                return 0;
            }
        }
        if (types.length == 0) {
            return 0;
        }
        final int n = keys.count;
        int stride = 1;
        for (int k = 0; k < types.length; k++) {
            final int[] codes = keys.strings[k].codes();
            if (k == 0) {
                System.arraycopy(codes, 0, combined, 0, n);
            } else {
                for (int i = 0; i < n; i++) {
                    combined[i] += codes[i] * stride;
                }
            }
            stride *= Math.max(1, keys.strings[k].dictionary().rowCount());
        }
        return (int) combos;
    }

    private boolean sameKey(final int id, final KeyColumns keys, final int row) {
        for (int k = 0; k < types.length; k++) {
            final boolean rowNull = keys.nulls[k] != null && NullMask.isNull(keys.nulls[k], row);
            final boolean idNull = keyNull[k] != null && keyNull[k][id];
            if (rowNull || idNull) {
                if (rowNull != idNull) {
                    return false;
                }
            } else if (isString[k]) {
                final StringVector s = keys.strings[k];
                if (!Vectors.sameBytes(arena, stringStart[k][id], stringLength[k][id], s.bytes(), s.offset(row),
                        s.length(row))) {
                    return false;
                }
            } else if (longKeys[k][id] != keys.longs[k][row]) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyNullAt(final KeyColumns keys, final int row) {
        for (final long[] nulls : keys.nulls) {
            if (nulls != null && NullMask.isNull(nulls, row)) {
                return true;
            }
        }
        return false;
    }

    private int insert(final KeyColumns keys, final int row, final long h, final int slot) {
        final int id = store(keys, row, h);
        slots[slot] = id + 1;
        if (size * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    /** Adds a row's key as the next id, without a slot. */
    private int store(final KeyColumns keys, final int row, final long h) {
        final int id = size;
        if (id == hashOf.length) {
            growEntries();
        }
        hashOf[id] = h;
        for (int k = 0; k < types.length; k++) {
            if (keys.nulls[k] != null && NullMask.isNull(keys.nulls[k], row)) {
                if (keyNull[k] == null) {
                    keyNull[k] = new boolean[hashOf.length];
                }
                keyNull[k][id] = true;
                if (isString[k]) {
                    stringStart[k][id] = arenaSize;
                    stringLength[k][id] = 0;
                } else {
                    longKeys[k][id] = 0;
                }
            } else if (isString[k]) {
                final StringVector s = keys.strings[k];
                final int len = s.length(row);
                if (arenaSize + len > arena.length) {
                    arena = Arrays.copyOf(arena, Math.max(arenaSize + len, arena.length * 2 + 1024));
                }
                System.arraycopy(s.bytes(), s.offset(row), arena, arenaSize, len);
                stringStart[k][id] = arenaSize;
                stringLength[k][id] = len;
                arenaSize += len;
            } else {
                longKeys[k][id] = keys.longs[k][row];
            }
        }
        size++;
        return id;
    }

    private void growEntries() {
        final int capacity = hashOf.length * 2;
        hashOf = Arrays.copyOf(hashOf, capacity);
        for (int k = 0; k < types.length; k++) {
            if (keyNull[k] != null) {
                keyNull[k] = Arrays.copyOf(keyNull[k], capacity);
            }
            if (isString[k]) {
                stringStart[k] = Arrays.copyOf(stringStart[k], capacity);
                stringLength[k] = Arrays.copyOf(stringLength[k], capacity);
            } else {
                longKeys[k] = Arrays.copyOf(longKeys[k], capacity);
            }
        }
    }

    private void rehash() {
        refill(slots.length * 2);
    }

    /** Gives every id its slot, in a table with room for twice as many. */
    private void fillSlots() {
        refill(Math.max(INITIAL_CAPACITY * 2, Integer.highestOneBit(Math.max(1, size)) * 4));
    }

    private void refill(final int capacity) {
        slots = new int[capacity];
        mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int slot = (int) hashOf[id] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id + 1;
        }
    }

    /** The keys of ids {@code [from, to)} of one key column, as a vector of the column's type. */
    ColumnVector keyVector(final int k, final int from, final int to) {
        final int n = to - from;
        final DataType t = types[k];
        long[] nulls = null;
        if (keyNull[k] != null) {
            for (int i = 0; i < n; i++) {
                if (keyNull[k][from + i]) {
                    nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                    NullMask.setNull(nulls, i);
                }
            }
        }
        if (isString[k]) {
            final int[] offsets = new int[n + 1];
            int total = 0;
            for (int i = 0; i < n; i++) {
                total += stringLength[k][from + i];
            }
            final byte[] bytes = new byte[total];
            int pos = 0;
            for (int i = 0; i < n; i++) {
                final int len = stringLength[k][from + i];
                System.arraycopy(arena, stringStart[k][from + i], bytes, pos, len);
                pos += len;
                offsets[i + 1] = pos;
            }
            return StringVector.plain(offsets, bytes, n, nulls);
        }
        if (t.isLongStored()) {
            return new LongVector(t.storage(), Arrays.copyOfRange(longKeys[k], from, to), n, nulls);
        }
        final int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = (int) longKeys[k][from + i];
        }
        return new IntVector(t.storage(), values, n, nulls);
    }
}
