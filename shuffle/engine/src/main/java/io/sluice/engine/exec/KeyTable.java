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

    KeyTable(final DataType[] types) {
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
    }

    /** Number of distinct keys. */
    int size() {
        return size;
    }

    /** The key column types. */
    DataType[] types() {
        return types.clone();
    }

    /** The id of each row's key, inserting keys not seen before. */
    void findOrInsert(final KeyColumns keys, final int[] ids) {
        final int n = keys.count;
        final int combos = combinedCodes(keys);
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
        for (int i = 0; i < n; i++) {
            ids[i] = findOrInsertRow(keys, i);
        }
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

    private int insert(final KeyColumns keys, final int row, final long h, final int slot) {
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
        slots[slot] = id + 1;
        size++;
        if (size * 2 > slots.length) {
            rehash();
        }
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
        slots = new int[slots.length * 2];
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
