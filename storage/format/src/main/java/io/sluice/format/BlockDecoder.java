package io.sluice.format;

import static io.sluice.format.BlockLayout.align8;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Reads a block in the {@link BlockLayout} from a buffer (a mapped file or a received frame).
 * {@link #wrap} verifies the header: magic, version, length against the bytes present, header
 * checksum and directory bounds. Each column is verified against its own checksum when it is
 * read, so reading a projection costs only the projected bytes. Any failure is a
 * {@link CorruptBlockException}; nothing is ever read outside the wrapped range.
 */
public final class BlockDecoder {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final TypeKind[] KINDS = TypeKind.values();

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private String source;
    private long block;
    private int rowCount;
    private int columnCount;

    /**
     * Wraps and verifies the header of a block occupying exactly {@code [offset, offset + length)}.
     *
     * @param buffer the bytes, on or off the heap; read in place, not copied
     * @param offset where the block starts in {@code buffer}
     * @param length the block's length in bytes, which must equal the length its header states
     * @param source the file or stream the bytes came from, named in errors
     * @param block  the block's index in its table (or frame sequence), named in errors
     * @return this decoder, now reading that block
     * @throws CorruptBlockException when the header is truncated, has a bad magic, version, length,
     *                               checksum or row count, or a column's data lies outside the block
     */
    public BlockDecoder wrap(final DirectBuffer buffer, final int offset, final int length,
                             final String source, final long block) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.source = source;
        this.block = block;
        if (length < BlockLayout.HEADER_LENGTH) {
            throw corrupt("truncated: " + length + " bytes, the header alone needs " + BlockLayout.HEADER_LENGTH);
        }
        final int magic = buffer.getInt(offset + BlockLayout.MAGIC_OFFSET, LE);
        if (magic != BlockLayout.MAGIC) {
            throw corrupt(String.format("bad magic 0x%08x, expected 0x%08x: not a Sluice block", magic, BlockLayout.MAGIC));
        }
        final short version = buffer.getShort(offset + BlockLayout.VERSION_OFFSET, LE);
        if (version != BlockLayout.VERSION) {
            throw corrupt("format version " + version + ", this build reads version " + BlockLayout.VERSION);
        }
        final long total = buffer.getLong(offset + BlockLayout.TOTAL_LENGTH_OFFSET, LE);
        if (total != length) {
            throw corrupt(total > length
                    ? "truncated: " + length + " bytes present, the header says " + total
                    : length + " bytes present but the header says " + total);
        }
        columnCount = buffer.getShort(offset + BlockLayout.COLUMN_COUNT_OFFSET, LE) & 0xFFFF;
        final int dataStart = BlockLayout.dataStart(columnCount);
        if (dataStart > length) {
            throw corrupt("header claims " + columnCount + " columns, more than " + length + " bytes can hold");
        }
        final long expected = BlockEncoder.headerChecksum(buffer, offset, columnCount);
        if (buffer.getLong(offset + BlockLayout.HEADER_CHECKSUM_OFFSET, LE) != expected) {
            throw corrupt("header checksum mismatch");
        }
        rowCount = buffer.getInt(offset + BlockLayout.ROW_COUNT_OFFSET, LE);
        if (rowCount < 0 || rowCount > Block.MAX_ROWS) {
            throw corrupt("row count " + rowCount + " outside 0.." + Block.MAX_ROWS);
        }
        for (int c = 0; c < columnCount; c++) {
            final int entry = offset + BlockLayout.directoryEntry(c);
            final int kind = buffer.getByte(entry + BlockLayout.ENTRY_KIND);
            final long dataOffset = buffer.getLong(entry + BlockLayout.ENTRY_OFFSET, LE);
            final int dataLength = buffer.getInt(entry + BlockLayout.ENTRY_LENGTH, LE);
            if (kind < 0 || kind >= KINDS.length) {
                throw corrupt("column " + c + " has unknown kind " + kind);
            }
            if (dataOffset < dataStart || dataLength < 0 || dataOffset + dataLength > length) {
                throw corrupt("column " + c + " data [" + dataOffset + ", +" + dataLength + ") lies outside the block");
            }
        }
        return this;
    }

    /**
     * Rows in the wrapped block.
     *
     * @return 0 to {@link Block#MAX_ROWS}
     */
    public int rowCount() {
        return rowCount;
    }

    /**
     * Columns in the wrapped block.
     *
     * @return the column count the header states
     */
    public int columnCount() {
        return columnCount;
    }

    /**
     * The stored kind of a column.
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @return the kind its directory entry states
     * @throws IndexOutOfBoundsException when the block has no such column
     */
    public TypeKind kind(final int column) {
        return KINDS[buffer.getByte(offset + BlockLayout.directoryEntry(checkColumn(column)) + BlockLayout.ENTRY_KIND)];
    }

    /**
     * The stored zonemap of a column (covered by the header checksum).
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @return the zonemap, read without touching the column's data
     * @throws IndexOutOfBoundsException when the block has no such column
     */
    public ZoneMap zoneMap(final int column) {
        final int z = offset + BlockLayout.zoneMapEntry(columnCount, checkColumn(column));
        return new ZoneMap(buffer.getLong(z, LE), buffer.getLong(z + 8, LE), buffer.getInt(z + 16, LE),
                buffer.getInt(z + 20, LE));
    }

    /**
     * Reads the columns of {@code schema} at {@code projection} (all columns when null) into a block.
     *
     * @param schema     the block's columns, all of them, as the table declares them
     * @param projection positions in {@code schema} of the columns to read, in output order, or null
     * @return a block of the projected columns, each verified against its checksum
     * @throws CorruptBlockException when the column count, a kind or a checksum does not match, or a
     *                               column's data is inconsistent
     */
    public Block decode(final Schema schema, final int[] projection) {
        return decode(schema, projection, null);
    }

    /**
     * Reads the projected columns, skipping the checksum of columns marked in {@code verified} and
     * marking the ones it checks (a cache for bytes that cannot change, such as a read-only mapping).
     *
     * @param schema     the block's columns, all of them, as the table declares them
     * @param projection positions in {@code schema} of the columns to read, in output order, or null
     *                   for all
     * @param verified   one flag per column of the block, true where it was already verified; or null
     *                   to verify every column read
     * @return a block of the projected columns
     * @throws CorruptBlockException when the column count, a kind or a checksum does not match, or a
     *                               column's data is inconsistent
     */
    public Block decode(final Schema schema, final int[] projection, final boolean[] verified) {
        if (schema.size() != columnCount) {
            throw corrupt("holds " + columnCount + " columns, the schema has " + schema.size());
        }
        final int n = projection == null ? columnCount : projection.length;
        final ColumnVector[] columns = new ColumnVector[n];
        final ZoneMap[] zoneMaps = new ZoneMap[n];
        for (int i = 0; i < n; i++) {
            final int c = projection == null ? i : projection[i];
            final boolean verify = verified == null || !verified[c];
            columns[i] = column(c, schema.type(c), verify, null);
            if (verified != null) {
                verified[c] = true;
            }
            zoneMaps[i] = zoneMap(c);
        }
        return new Block(rowCount, columns, zoneMaps);
    }

    /**
     * Verifies and reads one column as the given type.
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @param type   the type the schema gives it; its kind must be the stored kind
     * @return a new vector of the column's rows
     * @throws CorruptBlockException when the kind or the checksum does not match, or the data is
     *                               inconsistent
     */
    public ColumnVector column(final int column, final ColumnType type) {
        return column(column, type, true, null);
    }

    /**
     * Reads one column as the given type.
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @param type   the type the schema gives it; its kind must be the stored kind
     * @param verify whether to check the column's checksum (skip only for bytes already verified
     *               that cannot have changed since, such as a read-only mapping)
     * @param reuse  a vector whose value array may be overwritten to avoid an allocation, or null;
     *               the caller must no longer use it
     * @return a vector of the column's rows
     * @throws CorruptBlockException when the kind or a checked checksum does not match, or the data is
     *                               inconsistent
     */
    public ColumnVector column(final int column, final ColumnType type, final boolean verify, final ColumnVector reuse) {
        final int entry = checkedEntry(column, type, verify);
        final TypeKind kind = type.kind();
        final int start = offset + (int) buffer.getLong(entry + BlockLayout.ENTRY_OFFSET, LE);
        final boolean hasNulls = buffer.getByte(entry + BlockLayout.ENTRY_HAS_NULLS) != 0;
        final byte encoding = buffer.getByte(entry + BlockLayout.ENTRY_ENCODING);
        final int end = start + buffer.getInt(entry + BlockLayout.ENTRY_LENGTH, LE);
        final int rows = rowCount;
        int p = start;
        long[] nulls = null;
        if (hasNulls) {
            final int words = NullMask.words(rows);
            need(column, p, 8 * words, end);
            nulls = new long[words];
            BufferCopy.toLongs(buffer, p, nulls, words);
            p += 8 * words;
        }
        switch (kind) {
            case INT64, DECIMAL -> {
                need(column, p, 8 * rows, end);
                final long[] values = reuse instanceof LongVector lv && lv.values().length >= rows
                        ? lv.values() : new long[rows];
                BufferCopy.toLongs(buffer, p, values, rows);
                return new LongVector(type, values, rows, nulls);
            }
            case DECIMAL128 -> {
                need(column, p, 16L * rows, end);
                final long[] high = new long[rows];
                final long[] low = new long[rows];
                BufferCopy.toLongs(buffer, p, high, rows);
                BufferCopy.toLongs(buffer, p + 8 * rows, low, rows);
                return new Decimal128Vector(type, high, low, rows, nulls);
            }
            case INT32, DATE -> {
                need(column, p, 4 * rows, end);
                final int[] values = reuse instanceof IntVector iv && iv.values().length >= rows
                        ? iv.values() : new int[rows];
                BufferCopy.toInts(buffer, p, values, rows);
                return new IntVector(type, values, rows, nulls);
            }
            default -> {
                if (encoding == BlockLayout.ENCODING_DICTIONARY) {
                    need(column, p, 8, end);
                    final int count = buffer.getInt(p, LE);
                    if (count < 0 || count > BlockEncoder.MAX_DICTIONARY) {
                        throw corrupt("column " + column + " dictionary size " + count + " is invalid");
                    }
                    final StringVector dictionary = readPlain(column, p + 8, end, count, null);
                    p = align8(p + 8 + 4 * (count + 1)) + align8(dictionary.offsets()[count]);
                    need(column, p, 4 * rows, end);
                    final int[] codes = new int[rows];
                    BufferCopy.toInts(buffer, p, codes, rows);
                    for (int r = 0; r < rows; r++) {
                        if (codes[r] < 0 || codes[r] >= count) {
                            throw corrupt("column " + column + " row " + r + " has dictionary code " + codes[r]
                                    + " outside 0.." + (count - 1));
                        }
                    }
                    return StringVector.dictionary(codes, dictionary, rows, nulls);
                }
                if (encoding != BlockLayout.ENCODING_PLAIN) {
                    throw corrupt("column " + column + " has unknown encoding " + encoding);
                }
                return readPlain(column, p, end, rows, nulls);
            }
        }
    }

    /**
     * Reads some rows of one column, straight from the buffer: what a scan reads of the columns its
     * filters do not need, once the filters have chosen the rows (no copy of the whole column).
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @param type   the type the schema gives it; its kind must be the stored kind
     * @param verify whether to check the column's checksum first (over the whole column)
     * @param rows   row positions in the block, each in {@code [0, rowCount())}, in the order wanted
     * @param count  how many entries of {@code rows} to read
     * @return a new vector of {@code count} rows: row {@code i} is the block's row {@code rows[i]}
     * @throws CorruptBlockException    as {@link #column(int, ColumnType, boolean, ColumnVector)} does
     * @throws IndexOutOfBoundsException when a row lies outside the block
     */
    public ColumnVector rows(final int column, final ColumnType type, final boolean verify, final int[] rows,
                             final int count) {
        final int entry = checkedEntry(column, type, verify);
        for (int i = 0; i < count; i++) {
            if (rows[i] < 0 || rows[i] >= rowCount) {
                throw new IndexOutOfBoundsException("row " + rows[i] + " of a block of " + rowCount + " rows");
            }
        }
        final int start = offset + (int) buffer.getLong(entry + BlockLayout.ENTRY_OFFSET, LE);
        final int end = start + buffer.getInt(entry + BlockLayout.ENTRY_LENGTH, LE);
        final int all = rowCount;
        int p = start;
        long[] nulls = null;
        if (buffer.getByte(entry + BlockLayout.ENTRY_HAS_NULLS) != 0) {
            final int words = NullMask.words(all);
            need(column, p, 8L * words, end);
            for (int i = 0; i < count; i++) {
                final int r = rows[i];
                if ((buffer.getLong(p + 8 * (r >>> 6), LE) & (1L << r)) != 0) {
                    if (nulls == null) {
                        nulls = new long[NullMask.words(count)];
                    }
                    NullMask.setNull(nulls, i);
                }
            }
            p += 8 * words;
        }
        switch (type.kind()) {
            case INT64, DECIMAL -> {
                need(column, p, 8L * all, end);
                final long[] values = new long[count];
                BufferCopy.gatherLongs(buffer, p, all, rows, count, values);
                return new LongVector(type, values, count, nulls);
            }
            case DECIMAL128 -> {
                need(column, p, 16L * all, end);
                final long[] high = new long[count];
                final long[] low = new long[count];
                BufferCopy.gatherLongs(buffer, p, all, rows, count, high);
                BufferCopy.gatherLongs(buffer, p + 8 * all, all, rows, count, low);
                return new Decimal128Vector(type, high, low, count, nulls);
            }
            case INT32, DATE -> {
                need(column, p, 4L * all, end);
                final int[] values = new int[count];
                BufferCopy.gatherInts(buffer, p, all, rows, count, values);
                return new IntVector(type, values, count, nulls);
            }
            default -> {
                final byte encoding = buffer.getByte(entry + BlockLayout.ENTRY_ENCODING);
                if (encoding == BlockLayout.ENCODING_DICTIONARY) {
                    need(column, p, 8, end);
                    final int size = buffer.getInt(p, LE);
                    if (size < 0 || size > BlockEncoder.MAX_DICTIONARY) {
                        throw corrupt("column " + column + " dictionary size " + size + " is invalid");
                    }
                    final StringVector dictionary = readPlain(column, p + 8, end, size, null);
                    p = align8(p + 8 + 4 * (size + 1)) + align8(dictionary.offsets()[size]);
                    need(column, p, 4L * all, end);
                    final int[] codes = new int[count];
                    BufferCopy.gatherInts(buffer, p, all, rows, count, codes);
                    for (int i = 0; i < count; i++) {
                        if (codes[i] < 0 || codes[i] >= size) {
                            throw corrupt("column " + column + " row " + rows[i] + " has dictionary code " + codes[i]
                                    + " outside 0.." + (size - 1));
                        }
                    }
                    return StringVector.dictionary(codes, dictionary, count, nulls);
                }
                if (encoding != BlockLayout.ENCODING_PLAIN) {
                    throw corrupt("column " + column + " has unknown encoding " + encoding);
                }
                return gatherPlain(column, p, end, rows, count, nulls);
            }
        }
    }

    /** The rows {@code rows[0..count)} of a plain string region of {@link #rowCount} rows at {@code start}. */
    private StringVector gatherPlain(final int column, final int start, final int end, final int[] rows, final int count,
                                     final long[] nulls) {
        final int all = rowCount;
        need(column, start, 4L * (all + 1), end);
        final int bytesStart = align8(start + 4 * (all + 1));
        final int byteLength = buffer.getInt(start + 4 * all, LE);
        need(column, bytesStart, byteLength, end);
        final int[] offsets = new int[count + 1];
        int total = 0;
        for (int i = 0; i < count; i++) {
            final int r = rows[i];
            final int from = buffer.getInt(start + 4 * r, LE);
            final int to = buffer.getInt(start + 4 * r + 4, LE);
            if (from < 0 || to < from || to > byteLength) {
                throw corrupt("column " + column + " string offsets of row " + r + " (" + from + ".." + to
                        + ") lie outside its " + byteLength + " bytes");
            }
            total += to - from;
            offsets[i + 1] = total;
        }
        final byte[] bytes = new byte[total];
        for (int i = 0; i < count; i++) {
            final int length = offsets[i + 1] - offsets[i];
            if (length > 0) {
                buffer.getBytes(bytesStart + buffer.getInt(start + 4 * rows[i], LE), bytes, offsets[i], length);
            }
        }
        return StringVector.plain(offsets, bytes, count, nulls);
    }

    /** A column's directory entry, after checking its kind against the schema and, when asked, its checksum. */
    private int checkedEntry(final int column, final ColumnType type, final boolean verify) {
        final int entry = offset + BlockLayout.directoryEntry(checkColumn(column));
        final TypeKind kind = KINDS[buffer.getByte(entry + BlockLayout.ENTRY_KIND)];
        if (kind != type.kind()) {
            throw corrupt("column " + column + " is stored as " + kind + " but the schema says " + type);
        }
        if (verify && BlockChecksum.compute(buffer, offset + (int) buffer.getLong(entry + BlockLayout.ENTRY_OFFSET, LE),
                buffer.getInt(entry + BlockLayout.ENTRY_LENGTH, LE), BlockChecksum.SEED)
                != buffer.getLong(entry + BlockLayout.ENTRY_CHECKSUM, LE)) {
            throw corrupt("column " + column + " checksum mismatch");
        }
        return entry;
    }

    private StringVector readPlain(final int column, final int start, final int end, final int rows, final long[] nulls) {
        need(column, start, 4 * (rows + 1), end);
        final int[] offsets = new int[rows + 1];
        BufferCopy.toInts(buffer, start, offsets, rows + 1);
        final int bytesStart = align8(start + 4 * (rows + 1));
        if (offsets[0] != 0) {
            throw corrupt("column " + column + " string offsets do not start at 0");
        }
        for (int r = 0; r < rows; r++) {
            if (offsets[r + 1] < offsets[r]) {
                throw corrupt("column " + column + " string offsets decrease at row " + r);
            }
        }
        final int byteLength = offsets[rows];
        need(column, bytesStart, byteLength, end);
        final byte[] bytes = new byte[byteLength];
        buffer.getBytes(bytesStart, bytes, 0, byteLength);
        return StringVector.plain(offsets, bytes, rows, nulls);
    }

    private void need(final int column, final int position, final long bytes, final int end) {
        if (bytes < 0 || position + bytes > end) {
            throw corrupt("column " + column + " needs " + bytes + " bytes at " + (position - offset)
                    + " but its data ends at " + (end - offset));
        }
    }

    private int checkColumn(final int column) {
        if (column < 0 || column >= columnCount) {
            throw new IndexOutOfBoundsException("column " + column + " of a block with " + columnCount + " columns");
        }
        return column;
    }

    private CorruptBlockException corrupt(final String problem) {
        return new CorruptBlockException(source, block, problem);
    }
}
