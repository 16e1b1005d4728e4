package io.sluice.shuffle.operator;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import java.util.Arrays;

/**
 * One bucket's rows being gathered into primitive arrays sized for a full batch: {@code long[]} or
 * {@code int[]} per fixed-width column, offsets + bytes per string column, a null bitmap per column.
 * Dictionary strings are expanded to plain bytes as they are gathered, so rows from blocks with
 * different dictionaries can share a buffer. Taken from a {@link BufferPool}, emitted as a pooled
 * {@link Batch} whose vectors are views over these arrays, and reset when that batch is released.
 */
final class BucketBuffer {
    static final byte LONG = 0;
    static final byte INT = 1;
    static final byte STRING = 2;
    /** A DECIMAL128 column: the low halves in the long array, the high halves in their own. */
    static final byte WIDE = 3;
    static final int CAPACITY = Block.MAX_ROWS;
    private static final int NULL_WORDS = NullMask.words(CAPACITY);

    private final BufferPool pool;
    private final ColumnType[] types;
    private final byte[] shapes;
    private final long[][] longs;
    private final long[][] highs;
    private final int[][] ints;
    private final int[][] offsets;
    private final byte[][] bytes;
    private final long[][] nulls;
    private final boolean[] anyNull;
    private int size;
    private int bucket;
    /** Bytes of all arrays; changes only through the pool, which accounts for it. */
    private long reservedBytes;
    /** Incremented on every emit so that a stale batch cannot release a reused buffer; guarded by the pool. */
    private int lease;
    /** Whether an emitted batch holds this buffer; guarded by the pool. */
    private boolean lent;

    BucketBuffer(final BufferPool pool, final ColumnType[] types, final byte[] shapes, final int initialStringBytes) {
        this.pool = pool;
        this.types = types;
        this.shapes = shapes;
        final int columns = types.length;
        this.longs = new long[columns][];
        this.highs = new long[columns][];
        this.ints = new int[columns][];
        this.offsets = new int[columns][];
        this.bytes = new byte[columns][];
        this.nulls = new long[columns][];
        this.anyNull = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            switch (shapes[c]) {
                case LONG -> longs[c] = new long[CAPACITY];
                case INT -> ints[c] = new int[CAPACITY];
                case WIDE -> {
                    longs[c] = new long[CAPACITY];
                    highs[c] = new long[CAPACITY];
                }
                default -> {
                    offsets[c] = new int[CAPACITY + 1];
                    bytes[c] = new byte[initialStringBytes];
                }
            }
            nulls[c] = new long[NULL_WORDS];
        }
        this.reservedBytes = fixedBytes(shapes, initialStringBytes);
    }

    /** The shape (LONG, INT, STRING or WIDE) of a column type. */
    static byte shapeOf(final ColumnType type) {
        if (type.kind() == TypeKind.DECIMAL128) {
            return WIDE;
        }
        return type.kind().isLong() ? LONG : type.kind().isInt() ? INT : STRING;
    }

    /** Bytes one fresh buffer takes for columns of these shapes. */
    static long fixedBytes(final byte[] shapes, final int initialStringBytes) {
        long total = 0;
        for (final byte shape : shapes) {
            total += 8L * NULL_WORDS + switch (shape) {
                case LONG -> 8L * CAPACITY;
                case WIDE -> 16L * CAPACITY;
                case INT -> 4L * CAPACITY;
                default -> 4L * (CAPACITY + 1) + initialStringBytes;
            };
        }
        return total;
    }

    int size() {
        return size;
    }

    /** Rows that still fit before the buffer holds a full batch. */
    int room() {
        return CAPACITY - size;
    }

    int bucket() {
        return bucket;
    }

    void assign(final int bucket) {
        this.bucket = bucket;
    }

    long reservedBytes() {
        return reservedBytes;
    }

    /** Free bytes left in a string column's byte array. */
    int freeStringBytes(final int column) {
        return bytes[column].length - offsets[column][size];
    }

    /** Bytes already used in a string column. */
    int usedStringBytes(final int column) {
        return offsets[column][size];
    }

    /** Replaces a string column's byte array with a larger one; the pool has reserved the difference. */
    void growStringBytes(final int column, final int capacity) {
        reservedBytes += capacity - bytes[column].length;
        bytes[column] = Arrays.copyOf(bytes[column], capacity);
    }

    /**
     * Takes in rows {@code rows[from .. from + count)} of {@code source} except their fixed-width
     * values: copies the string columns' bytes and every column's null bits, and reserves the
     * positions that {@link #gather} fills later, column by column across buckets. The caller has
     * checked that they fit: {@code count <= room()} and every string column's bytes.
     *
     * @return the position of the first of these rows in this buffer, for {@link #gather}
     */
    int reserve(final ColumnVector[] source, final int[] rows, final int from, final int count) {
        final int at = size;
        final int to = from + count;
        final boolean run = isRun(rows, from, count);
        for (int c = 0; c < shapes.length; c++) {
            final ColumnVector vector = source[c];
            if (shapes[c] == STRING) {
                appendStrings(c, (StringVector) vector, rows, from, to, run);
            }
            final long[] sourceNulls = vector.nulls();
            if (sourceNulls != null) {
                anyNull[c] |= gatherNulls(sourceNulls, rows, from, to, nulls[c], at);
            }
        }
        size += count;
        return at;
    }

    /**
     * Fills positions {@code [at, at + count)}, reserved by {@link #reserve}, of one fixed-width
     * column with rows {@code rows[from .. from + count)} of {@code vector}. Row numbers ascend inside
     * a bucket, so when the last is {@code count - 1} past the first the rows are one run of the
     * batch, copied in bulk.
     */
    void gather(final int column, final ColumnVector vector, final int[] rows, final int from, final int count,
                final int at) {
        final int to = from + count;
        final boolean run = isRun(rows, from, count);
        final int first = rows[from];
        switch (shapes[column]) {
            case LONG -> {
                if (run) {
                    System.arraycopy(((LongVector) vector).values(), first, longs[column], at, count);
                } else {
                    gather(((LongVector) vector).values(), rows, from, to, longs[column], at);
                }
            }
            case INT -> {
                if (run) {
                    System.arraycopy(((IntVector) vector).values(), first, ints[column], at, count);
                } else {
                    gather(((IntVector) vector).values(), rows, from, to, ints[column], at);
                }
            }
            case WIDE -> {
                final Decimal128Vector d = (Decimal128Vector) vector;
                if (run) {
                    System.arraycopy(d.low(), first, longs[column], at, count);
                    System.arraycopy(d.high(), first, highs[column], at, count);
                } else {
                    gather(d.low(), rows, from, to, longs[column], at);
                    gather(d.high(), rows, from, to, highs[column], at);
                }
            }
            default -> throw new IllegalArgumentException("column " + column + " is a string column: its bytes are "
                    + "copied by reserve, not gathered");
        }
    }

    /** Whether the ascending row numbers {@code rows[from .. from + count)} are consecutive. */
    private static boolean isRun(final int[] rows, final int from, final int count) {
        return rows[from + count - 1] - rows[from] == count - 1;
    }

    /** Whether a column's values are gathered by {@link #gather} (every shape but strings). */
    static boolean isFixedWidth(final byte shape) {
        return shape != STRING;
    }

    private static void gather(final long[] source, final int[] rows, final int from, final int to,
                               final long[] target, final int at) {
        int p = at;
        for (int k = from; k < to; k++) {
            target[p++] = source[rows[k]];
        }
    }

    private static void gather(final int[] source, final int[] rows, final int from, final int to,
                               final int[] target, final int at) {
        int p = at;
        for (int k = from; k < to; k++) {
            target[p++] = source[rows[k]];
        }
    }

    private static boolean gatherNulls(final long[] source, final int[] rows, final int from, final int to,
                                       final long[] target, final int at) {
        long any = 0;
        int p = at;
        for (int k = from; k < to; k++, p++) {
            final int r = rows[k];
            final long bit = (source[r >>> 6] >>> r) & 1L;
            target[p >>> 6] |= bit << p;
            any |= bit;
        }
        return any != 0;
    }

    private void appendStrings(final int c, final StringVector vector, final int[] rows, final int from, final int to,
                               final boolean run) {
        final int[] targetOffsets = offsets[c];
        final byte[] target = bytes[c];
        final byte[] source = vector.bytes();
        final int[] sourceOffsets = vector.isDictionary() ? vector.dictionary().offsets() : vector.offsets();
        final int[] codes = vector.codes();
        int p = size;
        int end = targetOffsets[p];
        if (run && codes == null) {
            // One run of a plain vector: its bytes are contiguous; only the offsets need rebasing.
            final int firstRow = rows[from];
            final int lastRow = firstRow + (to - from);
            final int start = sourceOffsets[firstRow];
            System.arraycopy(source, start, target, end, sourceOffsets[lastRow] - start);
            final int shift = end - start;
            for (int r = firstRow + 1; r <= lastRow; r++) {
                targetOffsets[++p] = sourceOffsets[r] + shift;
            }
            return;
        }
        for (int k = from; k < to; k++) {
            final int entry = codes == null ? rows[k] : codes[rows[k]];
            final int start = sourceOffsets[entry];
            final int length = sourceOffsets[entry + 1] - start;
            System.arraycopy(source, start, target, end, length);
            end += length;
            targetOffsets[++p] = end;
        }
    }

    /** Bytes that rows {@code rows[from .. from + count)} of a string column take. */
    static long stringBytes(final StringVector vector, final int[] rows, final int from, final int count) {
        final int[] sourceOffsets = vector.isDictionary() ? vector.dictionary().offsets() : vector.offsets();
        final int[] codes = vector.codes();
        long total = 0;
        for (int k = from; k < from + count; k++) {
            final int entry = codes == null ? rows[k] : codes[rows[k]];
            total += sourceOffsets[entry + 1] - sourceOffsets[entry];
        }
        return total;
    }

    /** How many of rows {@code rows[from ..]} (at most {@code count}) fit in {@code free} bytes. */
    static int rowsFitting(final StringVector vector, final int[] rows, final int from, final int count, final long free) {
        final int[] sourceOffsets = vector.isDictionary() ? vector.dictionary().offsets() : vector.offsets();
        final int[] codes = vector.codes();
        long used = 0;
        for (int k = from; k < from + count; k++) {
            final int entry = codes == null ? rows[k] : codes[rows[k]];
            used += sourceOffsets[entry + 1] - sourceOffsets[entry];
            if (used > free) {
                return k - from;
            }
        }
        return count;
    }

    /**
     * The rows gathered so far as a pooled batch tagged with this buffer's bucket. The vectors are
     * views over this buffer's arrays, valid until the batch is released.
     */
    Batch toBatch(final int lease) {
        final ColumnVector[] columns = new ColumnVector[shapes.length];
        for (int c = 0; c < shapes.length; c++) {
            final long[] columnNulls = anyNull[c] ? nulls[c] : null;
            columns[c] = switch (shapes[c]) {
                case LONG -> new LongVector(types[c], longs[c], size, columnNulls);
                case INT -> new IntVector(types[c], ints[c], size, columnNulls);
                case WIDE -> new Decimal128Vector(types[c], highs[c], longs[c], size, columnNulls);
                default -> StringVector.plain(offsets[c], bytes[c], size, columnNulls);
            };
        }
        return Batch.pooled(columns, size, bucket, this, lease);
    }

    /** Forgets all rows, keeping the arrays. */
    void reset() {
        final int words = NullMask.words(size);
        for (int c = 0; c < shapes.length; c++) {
            if (anyNull[c]) {
                Arrays.fill(nulls[c], 0, words, 0L);
                anyNull[c] = false;
            }
        }
        size = 0;
        bucket = -1;
    }

    /** Called by a pooled batch's release. */
    void release(final int batchLease) {
        pool.release(this, batchLease);
    }

    int lease() {
        return lease;
    }

    boolean isLent() {
        return lent;
    }

    /** Marks the buffer lent to a new batch and returns that batch's lease; called under the pool's lock. */
    int lend() {
        lent = true;
        return ++lease;
    }

    /** Marks the buffer returned; called under the pool's lock. */
    void unlend() {
        lent = false;
    }
}
