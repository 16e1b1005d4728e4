package io.sluice.format;

/**
 * The byte layout of one block, shared by block files and frames on the wire so that a block
 * routed whole is sent without re-encoding. Little-endian, every section 8-byte aligned.
 *
 * <pre>
 * header (32 bytes)
 *   0  int   magic 'SLCB'
 *   4  short format version
 *   6  short column count C
 *   8  int   row count (0..8192)
 *   12 int   flags (0)
 *   16 long  total length of the block in bytes
 *   24 long  header checksum: bytes [0,24) then [32, dataStart)
 * column directory (C x 24 bytes)
 *   +0 byte kind ({@link TypeKind} ordinal), +1 byte encoding (0 plain, 1 dictionary),
 *   +2 byte has-nulls, +3 byte 0, +4 int data length, +8 long data offset, +16 long data checksum
 * zonemaps (C x 24 bytes): long min, long max, int null count, int row count
 * column data, one region per column:
 *   null bitmap (if has-nulls): ceil(rows/64) longs
 *   INT64, DECIMAL: rows longs; INT32, DATE: rows ints
 *   DECIMAL128: rows longs of the high halves, then rows longs of the low halves
 *   STRING plain: int offsets[rows+1], bytes
 *   STRING dictionary: int dictCount, int dictBytes, int dictOffsets[dictCount+1], dict bytes, int codes[rows]
 * </pre>
 */
public final class BlockLayout {
    /** The first four bytes of every block, {@code 'SLCB'} read as a little-endian int. */
    public static final int MAGIC = 0x42434C53;
    /**
     * The format version this build writes and the only one it reads. DECIMAL128 columns came
     * without a new version: blocks without them are byte for byte what they were, and a reader
     * that predates the kind rejects its ordinal as an unknown kind.
     */
    public static final short VERSION = 1;

    /** Header offset of the magic (int). */
    public static final int MAGIC_OFFSET = 0;
    /** Header offset of the format version (short). */
    public static final int VERSION_OFFSET = 4;
    /** Header offset of the column count (unsigned short). */
    public static final int COLUMN_COUNT_OFFSET = 6;
    /** Header offset of the row count (int, 0 to {@link Block#MAX_ROWS}). */
    public static final int ROW_COUNT_OFFSET = 8;
    /** Header offset of the flags (int, always 0 in this version). */
    public static final int FLAGS_OFFSET = 12;
    /** Header offset of the block's total length in bytes (long). */
    public static final int TOTAL_LENGTH_OFFSET = 16;
    /**
     * Header offset of the header checksum (long), which covers the header before it and the
     * directory and zonemaps.
     */
    public static final int HEADER_CHECKSUM_OFFSET = 24;
    /** Bytes in the header; the column directory starts here. */
    public static final int HEADER_LENGTH = 32;

    /** Bytes in one column's directory entry. */
    public static final int DIRECTORY_ENTRY_LENGTH = 24;
    /** Entry offset of the column's kind (byte, a {@link TypeKind} ordinal). */
    public static final int ENTRY_KIND = 0;
    /** Entry offset of the column's encoding (byte, {@link #ENCODING_PLAIN} or {@link #ENCODING_DICTIONARY}). */
    public static final int ENTRY_ENCODING = 1;
    /** Entry offset of the has-nulls flag (byte, 1 when the data starts with a null bitmap). */
    public static final int ENTRY_HAS_NULLS = 2;
    /** Entry offset of the column data's length in bytes (int). */
    public static final int ENTRY_LENGTH = 4;
    /** Entry offset of where the column data starts, from the start of the block (long). */
    public static final int ENTRY_OFFSET = 8;
    /** Entry offset of the column data's checksum (long, {@link BlockChecksum} from {@link BlockChecksum#SEED}). */
    public static final int ENTRY_CHECKSUM = 16;

    /** Encoding of values stored as they are (strings as offsets and bytes). */
    public static final byte ENCODING_PLAIN = 0;
    /** Encoding of a string column stored as a dictionary of distinct values and a code per row. */
    public static final byte ENCODING_DICTIONARY = 1;

    private BlockLayout() {
    }

    /**
     * Offset of column {@code c}'s directory entry.
     *
     * @param c the column, from 0
     * @return bytes from the start of the block
     */
    public static int directoryEntry(final int c) {
        return HEADER_LENGTH + c * DIRECTORY_ENTRY_LENGTH;
    }

    /**
     * Offset of column {@code c}'s zonemap in a block of {@code columns} columns.
     *
     * @param columns columns in the block
     * @param c       the column, 0 to {@code columns - 1}
     * @return bytes from the start of the block
     */
    public static int zoneMapEntry(final int columns, final int c) {
        return HEADER_LENGTH + columns * DIRECTORY_ENTRY_LENGTH + c * ZoneMap.BYTES;
    }

    /**
     * Where column data starts in a block of {@code columns} columns.
     *
     * @param columns columns in the block
     * @return bytes from the start of the block, past the header, the directory and the zonemaps
     */
    public static int dataStart(final int columns) {
        return HEADER_LENGTH + columns * (DIRECTORY_ENTRY_LENGTH + ZoneMap.BYTES);
    }

    /**
     * Rounds up to a multiple of 8.
     *
     * @param n a length or offset in bytes, 0 or more
     * @return the least multiple of 8 that is at least {@code n}
     */
    public static int align8(final int n) {
        return (n + 7) & ~7;
    }
}
