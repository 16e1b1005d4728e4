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
 *   STRING plain: int offsets[rows+1], bytes
 *   STRING dictionary: int dictCount, int dictBytes, int dictOffsets[dictCount+1], dict bytes, int codes[rows]
 * </pre>
 */
public final class BlockLayout {
    public static final int MAGIC = 0x42434C53;
    public static final short VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int COLUMN_COUNT_OFFSET = 6;
    public static final int ROW_COUNT_OFFSET = 8;
    public static final int FLAGS_OFFSET = 12;
    public static final int TOTAL_LENGTH_OFFSET = 16;
    public static final int HEADER_CHECKSUM_OFFSET = 24;
    public static final int HEADER_LENGTH = 32;

    public static final int DIRECTORY_ENTRY_LENGTH = 24;
    public static final int ENTRY_KIND = 0;
    public static final int ENTRY_ENCODING = 1;
    public static final int ENTRY_HAS_NULLS = 2;
    public static final int ENTRY_LENGTH = 4;
    public static final int ENTRY_OFFSET = 8;
    public static final int ENTRY_CHECKSUM = 16;

    public static final byte ENCODING_PLAIN = 0;
    public static final byte ENCODING_DICTIONARY = 1;

    private BlockLayout() {
    }

    /** Offset of column {@code c}'s directory entry. */
    public static int directoryEntry(final int c) {
        return HEADER_LENGTH + c * DIRECTORY_ENTRY_LENGTH;
    }

    /** Offset of column {@code c}'s zonemap in a block of {@code columns} columns. */
    public static int zoneMapEntry(final int columns, final int c) {
        return HEADER_LENGTH + columns * DIRECTORY_ENTRY_LENGTH + c * ZoneMap.BYTES;
    }

    /** Where column data starts in a block of {@code columns} columns. */
    public static int dataStart(final int columns) {
        return HEADER_LENGTH + columns * (DIRECTORY_ENTRY_LENGTH + ZoneMap.BYTES);
    }

    /** Rounds up to a multiple of 8. */
    public static int align8(final int n) {
        return (n + 7) & ~7;
    }
}
