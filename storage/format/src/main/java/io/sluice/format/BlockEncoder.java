package io.sluice.format;

import static io.sluice.format.BlockLayout.align8;

import java.nio.ByteOrder;
import java.util.Arrays;
import org.agrona.MutableDirectBuffer;

/**
 * Writes a {@link Block} in the {@link BlockLayout}. Two steps, so a caller can size its target
 * (a mapped file, a frame) before writing: {@link #prepare} decides each column's encoding and
 * returns the length, {@link #writeTo} writes. Plain string columns with few distinct values are
 * dictionary-encoded. Not thread-safe; reuse one per writer thread.
 */
public final class BlockEncoder {
    /** Most distinct values a dictionary-encoded column may have. */
    public static final int MAX_DICTIONARY = 1024;
    private static final int HASH_SLOTS = 4096;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final int[] slots = new int[HASH_SLOTS];
    private Block block;
    private int[] dataLengths = new int[0];
    private int[][] codes = new int[0][];
    private int[][] dictRows = new int[0][];
    private int[] dictCounts = new int[0];
    private int totalLength;

    /**
     * Plans the encoding of a block and returns its encoded length in bytes.
     *
     * @param block the block to encode next; kept until {@link #writeTo}, not copied
     * @return the bytes {@link #writeTo} will write
     * @throws IllegalArgumentException when a column or the block would encode to more than 2 GiB
     */
    public int prepare(final Block block) {
        this.block = block;
        final int columns = block.columns().length;
        if (dataLengths.length < columns) {
            dataLengths = new int[columns];
            codes = Arrays.copyOf(codes, columns);
            dictRows = Arrays.copyOf(dictRows, columns);
            dictCounts = new int[columns];
        }
        long total = BlockLayout.dataStart(columns);
        final int rows = block.rowCount();
        for (int c = 0; c < columns; c++) {
            final ColumnVector vector = block.column(c);
            long length = vector.nulls() != null ? 8L * NullMask.words(rows) : 0;
            dictCounts[c] = -1;
            if (vector instanceof StringVector sv) {
                if (!sv.isDictionary()) {
                    dictCounts[c] = buildDictionary(c, sv);
                }
                if (sv.isDictionary()) {
                    final StringVector dict = sv.dictionary();
                    length += 8 + align8(4 * (dict.rowCount() + 1)) + align8((int) dict.valueBytes()) + align8(4 * rows);
                } else if (dictCounts[c] >= 0) {
                    long dictBytes = 0;
                    for (int d = 0; d < dictCounts[c]; d++) {
                        dictBytes += sv.length(dictRows[c][d]);
                    }
                    length += 8 + align8(4 * (dictCounts[c] + 1)) + align8((int) dictBytes) + align8(4 * rows);
                } else {
                    length += align8(4 * (rows + 1)) + align8((int) sv.valueBytes());
                }
            } else {
                length += align8(vector.type().kind().width() * rows);
            }
            if (length > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("column " + c + " encodes to " + length + " bytes, over the 2 GiB limit");
            }
            dataLengths[c] = (int) length;
            total += length;
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("block encodes to " + total + " bytes, over the 2 GiB limit");
        }
        totalLength = (int) total;
        return totalLength;
    }

    /**
     * Decides whether a plain column is worth a dictionary; if so fills codes and the rows that
     * hold each distinct value and returns the distinct count, otherwise -1.
     */
    private int buildDictionary(final int c, final StringVector sv) {
        final int rows = sv.rowCount();
        if (rows < 16) {
            return -1;
        }
        if (codes[c] == null || codes[c].length < rows) {
            codes[c] = new int[Block.MAX_ROWS];
            dictRows[c] = new int[MAX_DICTIONARY];
        }
        final int[] rowCodes = codes[c];
        final int[] firstRows = dictRows[c];
        Arrays.fill(slots, -1);
        final byte[] bytes = sv.bytes();
        int count = 0;
        long distinctBytes = 0;
        for (int r = 0; r < rows; r++) {
            final int offset = sv.offset(r);
            final int length = sv.length(r);
            int slot = hash(bytes, offset, length) & (HASH_SLOTS - 1);
            while (true) {
                final int d = slots[slot];
                if (d < 0) {
                    if (count == MAX_DICTIONARY) {
                        return -1;
                    }
                    slots[slot] = count;
                    firstRows[count] = r;
                    rowCodes[r] = count++;
                    distinctBytes += length;
                    break;
                }
                final int other = firstRows[d];
                final int otherOffset = sv.offset(other);
                if (Arrays.equals(bytes, offset, offset + length, bytes, otherOffset, otherOffset + sv.length(other))) {
                    rowCodes[r] = d;
                    break;
                }
                slot = (slot + 1) & (HASH_SLOTS - 1);
            }
        }
        final long dictionarySize = 8 + 4L * (count + 1) + distinctBytes;
        return dictionarySize < sv.valueBytes() ? count : -1;
    }

    private static int hash(final byte[] bytes, final int offset, final int length) {
        int h = 0x811C9DC5;
        for (int i = 0; i < length; i++) {
            h = (h ^ bytes[offset + i]) * 0x01000193;
        }
        return h ^ (h >>> 15);
    }

    /**
     * Writes the prepared block at {@code offset}; the buffer must hold {@link #prepare}'s length.
     *
     * @param buffer where to write, on or off the heap
     * @param offset where the block starts in {@code buffer}
     * @throws IndexOutOfBoundsException when the buffer is too short for the prepared length
     */
    public void writeTo(final MutableDirectBuffer buffer, final int offset) {
        final Block b = block;
        final int columns = b.columns().length;
        final int rows = b.rowCount();
        buffer.boundsCheck(offset, totalLength);
        buffer.putInt(offset + BlockLayout.MAGIC_OFFSET, BlockLayout.MAGIC, LE);
        buffer.putShort(offset + BlockLayout.VERSION_OFFSET, BlockLayout.VERSION, LE);
        buffer.putShort(offset + BlockLayout.COLUMN_COUNT_OFFSET, (short) columns, LE);
        buffer.putInt(offset + BlockLayout.ROW_COUNT_OFFSET, rows, LE);
        buffer.putInt(offset + BlockLayout.FLAGS_OFFSET, 0, LE);
        buffer.putLong(offset + BlockLayout.TOTAL_LENGTH_OFFSET, totalLength, LE);
        int position = BlockLayout.dataStart(columns);
        for (int c = 0; c < columns; c++) {
            final ColumnVector vector = b.column(c);
            final int start = offset + position;
            final int end = writeColumn(buffer, start, c, vector, rows);
            final int entry = offset + BlockLayout.directoryEntry(c);
            final boolean dictionary = vector instanceof StringVector sv && (sv.isDictionary() || dictCounts[c] >= 0);
            buffer.putByte(entry + BlockLayout.ENTRY_KIND, (byte) vector.type().kind().ordinal());
            buffer.putByte(entry + BlockLayout.ENTRY_ENCODING,
                    dictionary ? BlockLayout.ENCODING_DICTIONARY : BlockLayout.ENCODING_PLAIN);
            buffer.putByte(entry + BlockLayout.ENTRY_HAS_NULLS, (byte) (vector.nulls() != null ? 1 : 0));
            buffer.putByte(entry + 3, (byte) 0);
            buffer.putInt(entry + BlockLayout.ENTRY_LENGTH, dataLengths[c], LE);
            buffer.putLong(entry + BlockLayout.ENTRY_OFFSET, position, LE);
            buffer.putLong(entry + BlockLayout.ENTRY_CHECKSUM,
                    BlockChecksum.compute(buffer, start, dataLengths[c], BlockChecksum.SEED), LE);
            final ZoneMap zm = b.zoneMaps()[c];
            final int z = offset + BlockLayout.zoneMapEntry(columns, c);
            buffer.putLong(z, zm.min(), LE);
            buffer.putLong(z + 8, zm.max(), LE);
            buffer.putInt(z + 16, zm.nullCount(), LE);
            buffer.putInt(z + 20, zm.rowCount(), LE);
            if (end - start != dataLengths[c]) {
                throw new IllegalStateException("column " + c + " wrote " + (end - start) + " bytes, planned " + dataLengths[c]);
            }
            position += dataLengths[c];
        }
        buffer.putLong(offset + BlockLayout.HEADER_CHECKSUM_OFFSET, headerChecksum(buffer, offset, columns), LE);
    }

    /** The header checksum as stored at {@link BlockLayout#HEADER_CHECKSUM_OFFSET}. */
    static long headerChecksum(final org.agrona.DirectBuffer buffer, final int offset, final int columns) {
        final long first = BlockChecksum.compute(buffer, offset, BlockLayout.HEADER_CHECKSUM_OFFSET, BlockChecksum.SEED);
        return BlockChecksum.compute(buffer, offset + BlockLayout.HEADER_LENGTH,
                BlockLayout.dataStart(columns) - BlockLayout.HEADER_LENGTH, first);
    }

    private int writeColumn(final MutableDirectBuffer buffer, final int start, final int c,
                            final ColumnVector vector, final int rows) {
        int p = start;
        final long[] nulls = vector.nulls();
        if (nulls != null) {
            final int words = NullMask.words(rows);
            for (int w = 0; w < words; w++) {
                final long word = w == words - 1 && (rows & 63) != 0 ? nulls[w] & ((1L << rows) - 1) : nulls[w];
                buffer.putLong(p + 8 * w, word, LE);
            }
            p += 8 * words;
        }
        if (vector instanceof LongVector lv) {
            BufferCopy.fromLongs(lv.values(), rows, buffer, p);
            return padTo8(buffer, p + 8 * rows);
        }
        if (vector instanceof Decimal128Vector dv) {
            BufferCopy.fromLongs(dv.high(), rows, buffer, p);
            BufferCopy.fromLongs(dv.low(), rows, buffer, p + 8 * rows);
            return padTo8(buffer, p + 16 * rows);
        }
        if (vector instanceof IntVector iv) {
            BufferCopy.fromInts(iv.values(), rows, buffer, p);
            return padTo8(buffer, p + 4 * rows);
        }
        final StringVector sv = (StringVector) vector;
        if (sv.isDictionary()) {
            return writeDictionary(buffer, p, sv.dictionary(), sv.dictionary().rowCount(), null, sv.codes(), rows);
        }
        if (dictCounts[c] >= 0) {
            return writeDictionary(buffer, p, sv, dictCounts[c], dictRows[c], codes[c], rows);
        }
        final int[] offsets = sv.offsets();
        final int base = offsets[0];
        for (int r = 0; r <= rows; r++) {
            buffer.putInt(p + 4 * r, offsets[r] - base, LE);
        }
        p = padTo8(buffer, p + 4 * (rows + 1));
        final int length = offsets[rows] - base;
        buffer.putBytes(p, sv.bytes(), base, length);
        return padTo8(buffer, p + length);
    }

    /** Writes a dictionary whose entries are {@code values}' rows {@code entryRows} (or all rows when null). */
    private static int writeDictionary(final MutableDirectBuffer buffer, final int start, final StringVector values,
                                       final int count, final int[] entryRows, final int[] rowCodes, final int rows) {
        int p = start + 8;
        int bytesLength = 0;
        buffer.putInt(p, 0, LE);
        for (int d = 0; d < count; d++) {
            final int row = entryRows == null ? d : entryRows[d];
            bytesLength += values.length(row);
            buffer.putInt(p + 4 * (d + 1), bytesLength, LE);
        }
        buffer.putInt(start, count, LE);
        buffer.putInt(start + 4, bytesLength, LE);
        p = padTo8(buffer, p + 4 * (count + 1));
        for (int d = 0; d < count; d++) {
            final int row = entryRows == null ? d : entryRows[d];
            final int length = values.length(row);
            buffer.putBytes(p, values.bytes(), values.offset(row), length);
            p += length;
        }
        p = padTo8(buffer, p);
        BufferCopy.fromInts(rowCodes, rows, buffer, p);
        return padTo8(buffer, p + 4 * rows);
    }

    private static int padTo8(final MutableDirectBuffer buffer, final int p) {
        final int aligned = align8(p);
        for (int i = p; i < aligned; i++) {
            buffer.putByte(i, (byte) 0);
        }
        return aligned;
    }
}
