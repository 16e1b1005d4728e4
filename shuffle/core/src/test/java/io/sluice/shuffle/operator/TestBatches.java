package io.sluice.shuffle.operator;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.HashBucketFunction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random batches of every column kind for the shuffle operator tests, and the independent
 * readings the tests compare against: rows as tuples of Java objects, reference buckets.
 */
final class TestBatches {
    /** Every kind of column; the key is one of k (INT64), i (INT32), dt (DATE) or s (STRING); w is DECIMAL128. */
    static final Schema SCHEMA = Schema.parse("k:int64,i:int32,d:decimal(15,2),dt:date,s:string,t:string,w:decimal(30,2)");
    static final int K = 0;
    static final int I = 1;
    static final int DT = 3;
    static final int S = 4;
    private static final String[] WORDS = {"", "a", "ab", "abc", "b", "ba", "c", "car", "cart", "carton",
            "\u00e9t\u00e9", "zz", "zzzzzzzzzz", "x\u4e2d\u6587"};

    private TestBatches() {
    }

    /** How a batch's key values are laid out. */
    enum KeyShape { WIDE, NARROW, CONSTANT, SORTED }

    /** Generates batches for one scenario. */
    static List<Batch> batches(final Random random, final int keyColumn, final int count) {
        final List<Batch> out = new ArrayList<>();
        for (int b = 0; b < count; b++) {
            out.add(batch(random, keyColumn));
        }
        return out;
    }

    static Batch batch(final Random random, final int keyColumn) {
        final int[] sizes = {0, 1, 7, 200, 1000, 3000, 8192};
        final int rows = sizes[random.nextInt(sizes.length)];
        final KeyShape shape = KeyShape.values()[random.nextInt(KeyShape.values().length)];
        return batch(random, keyColumn, rows, shape);
    }

    /** A batch of the given size and key shape; nulls, zonemaps and the other columns at random. */
    static Batch batch(final Random random, final int keyColumn, final int rows, final KeyShape shape) {
        final double nullRate = random.nextInt(3) == 0 ? 0.15 : 0;
        final double keyNullRate = shape == KeyShape.SORTED && random.nextBoolean() ? 0 : nullRate;
        final ColumnVector[] columns = new ColumnVector[SCHEMA.size()];
        final long narrowBase = random.nextInt(2001) - 1000;
        for (int c = 0; c < columns.length; c++) {
            final double rate = c == keyColumn ? keyNullRate : nullRate;
            columns[c] = column(random, c, rows, rate, c == keyColumn ? shape : KeyShape.WIDE, narrowBase);
        }
        ZoneMap[] zoneMaps = null;
        if (random.nextInt(5) < 3) {
            zoneMaps = new ZoneMap[columns.length];
            for (int c = 0; c < columns.length; c++) {
                zoneMaps[c] = random.nextInt(6) == 0 ? null : ZoneMap.of(columns[c]);
            }
        }
        final int sortedBy = shape == KeyShape.SORTED ? keyColumn : Batch.NOT_SORTED;
        return new Batch(columns, zoneMaps, sortedBy);
    }

    private static ColumnVector column(final Random random, final int c, final int rows, final double nullRate,
                                       final KeyShape shape, final long narrowBase) {
        final long[] nulls = new long[NullMask.words(rows)];
        boolean anyNull = false;
        for (int r = 0; r < rows; r++) {
            if (random.nextDouble() < nullRate) {
                NullMask.setNull(nulls, r);
                anyNull = true;
            }
        }
        final long[] values = new long[rows];
        for (int r = 0; r < rows; r++) {
            values[r] = switch (shape) {
                case WIDE, SORTED -> random.nextInt(50) == 0 ? extreme(random) : random.nextInt(2001) - 1000;
                case NARROW -> narrowBase + random.nextInt(20);
                case CONSTANT -> narrowBase;
            };
        }
        final ColumnType type = SCHEMA.type(c);
        if (type.kind() == TypeKind.DECIMAL128) {
            final long[] high = new long[rows];
            final long[] low = new long[rows];
            for (int r = 0; r < rows; r++) {
                if (!anyNull || !NullMask.isNull(nulls, r)) {
                    low[r] = random.nextLong();
                    // Some values beyond the long range, most within it (high is low's sign then).
                    high[r] = random.nextInt(4) == 0 ? random.nextInt(2001) - 1000 : low[r] >> 63;
                }
            }
            return new Decimal128Vector(type, high, low, rows, anyNull ? nulls : null);
        }
        if (type.kind() == TypeKind.STRING) {
            final byte[][] strings = new byte[rows][];
            for (int r = 0; r < rows; r++) {
                strings[r] = c == S ? word(values[r]) : randomBytes(random);
            }
            if (shape == KeyShape.SORTED) {
                Arrays.sort(strings, Arrays::compareUnsigned);
            }
            return c == S && random.nextBoolean()
                    ? dictionary(strings, rows, anyNull ? nulls : null)
                    : plain(strings, rows, anyNull ? nulls : null);
        }
        if (shape == KeyShape.SORTED) {
            Arrays.sort(values);
        }
        if (type.kind().isLong()) {
            return new LongVector(type, values, rows, anyNull ? nulls : null);
        }
        final int[] ints = new int[rows];
        for (int r = 0; r < rows; r++) {
            ints[r] = (int) values[r];
        }
        return new IntVector(type, ints, rows, anyNull ? nulls : null);
    }

    private static long extreme(final Random random) {
        final long[] extremes = {Integer.MIN_VALUE, Integer.MAX_VALUE, -1_000_000, 1_000_000};
        return extremes[random.nextInt(extremes.length)];
    }

    private static byte[] word(final long value) {
        return WORDS[(int) Math.floorMod(value, WORDS.length)].getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] randomBytes(final Random random) {
        final int length = random.nextInt(40) == 0 ? 300 + random.nextInt(300) : random.nextInt(24);
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    static StringVector plain(final byte[][] strings, final int rows, final long[] nulls) {
        final int[] offsets = new int[rows + 1];
        int total = 0;
        for (int r = 0; r < rows; r++) {
            total += strings[r].length;
        }
        final byte[] bytes = new byte[total];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(strings[r], 0, bytes, offsets[r], strings[r].length);
            offsets[r + 1] = offsets[r] + strings[r].length;
        }
        return StringVector.plain(offsets, bytes, rows, nulls);
    }

    private static StringVector dictionary(final byte[][] strings, final int rows, final long[] nulls) {
        final Map<String, Integer> codesByValue = new HashMap<>();
        final List<byte[]> entries = new ArrayList<>();
        final int[] codes = new int[rows];
        for (int r = 0; r < rows; r++) {
            final String text = new String(strings[r], StandardCharsets.ISO_8859_1);
            Integer code = codesByValue.get(text);
            if (code == null) {
                code = entries.size();
                codesByValue.put(text, code);
                entries.add(strings[r]);
            }
            codes[r] = code;
        }
        final StringVector dict = plain(entries.toArray(new byte[0][]), entries.size(), null);
        return StringVector.dictionary(codes, dict, rows, nulls);
    }

    /** Cut points for a range shuffle on a key column: distinct, increasing in the key's order. */
    static long[] cuts(final Random random, final int keyColumn, final int bucketCount) {
        final java.util.TreeSet<Long> set = new java.util.TreeSet<>(
                keyColumn == S ? Long::compareUnsigned : Long::compare);
        int guard = 0;
        while (set.size() < bucketCount - 1 && guard++ < 100_000) {
            if (keyColumn == S) {
                final byte[] w = random.nextBoolean() ? word(random.nextInt(100)) : randomBytes(random);
                set.add(prefixKey(w, 0, w.length));
            } else {
                set.add((long) random.nextInt(2101) - 1050);
            }
        }
        return set.stream().mapToLong(Long::longValue).toArray();
    }

    // ------------------------------------------------------------------ independent readings

    /** A row as a tuple of Java objects (null for null values), read through the vectors' getters. */
    static List<Object> row(final Batch batch, final int r) {
        final List<Object> tuple = new ArrayList<>(batch.columnCount());
        for (int c = 0; c < batch.columnCount(); c++) {
            tuple.add(value(batch.column(c), r));
        }
        return tuple;
    }

    static Object value(final ColumnVector vector, final int r) {
        if (vector.isNull(r)) {
            return null;
        }
        if (vector instanceof LongVector lv) {
            return lv.get(r);
        }
        if (vector instanceof IntVector iv) {
            return iv.get(r);
        }
        if (vector instanceof Decimal128Vector dv) {
            return dv.get(r);
        }
        final StringVector sv = (StringVector) vector;
        // Bytes, not decoded text: random bytes are not valid UTF-8 and must survive exactly.
        return new Bytes(Arrays.copyOfRange(sv.bytes(), sv.offset(r), sv.offset(r) + sv.length(r)));
    }

    /** A byte string with value equality. */
    record Bytes(byte[] bytes) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** Counts of each tuple. */
    static Map<List<Object>, Integer> multiset(final List<List<Object>> rows) {
        final Map<List<Object>, Integer> counts = new HashMap<>();
        for (final List<Object> row : rows) {
            counts.merge(row, 1, Integer::sum);
        }
        return counts;
    }

    static List<List<Object>> rows(final List<Batch> batches) {
        final List<List<Object>> out = new ArrayList<>();
        for (final Batch b : batches) {
            for (int r = 0; r < b.rowCount(); r++) {
                out.add(row(b, r));
            }
        }
        return out;
    }

    /** First 8 bytes, big-endian, zero-padded: the order-preserving key of a string. */
    static long prefixKey(final byte[] bytes, final int offset, final int length) {
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (i < length ? bytes[offset + i] & 0xFF : 0);
        }
        return key;
    }

    /** The key of a non-null tuple value: the number, or the prefix key of a string. */
    static long keyOf(final Object value) {
        if (value instanceof Bytes b) {
            return prefixKey(b.bytes(), 0, b.bytes().length);
        }
        return ((Number) value).longValue();
    }

    /** Range bucket by counting cut points at or below the key; nulls in bucket 0. */
    static int referenceRange(final boolean unsigned, final long[] cuts, final Object value) {
        if (value == null) {
            return 0;
        }
        final long key = keyOf(value);
        int bucket = 0;
        for (final long cut : cuts) {
            if (unsigned ? Long.compareUnsigned(cut, key) <= 0 : cut <= key) {
                bucket++;
            }
        }
        return bucket;
    }

    /** Hash bucket of a tuple value through the function's documented scalar hash; nulls in bucket 0. */
    static int referenceHash(final HashBucketFunction f, final Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Bytes b) {
            return f.bucketOfHash(HashBucketFunction.hash(b.bytes(), 0, b.bytes().length));
        }
        return f.bucket(((Number) value).longValue());
    }
}
