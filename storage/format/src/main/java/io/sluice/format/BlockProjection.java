package io.sluice.format;

import static io.sluice.format.BlockLayout.align8;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Copies some columns of a block in the {@link BlockLayout} into a block of just those columns,
 * without decoding or encoding a value: how a scan's column choice of a stored block goes on the wire
 * as stored.
 *
 * <p>Why this is the stored block and not a second encoding: a block file holds every column of one
 * block, but each column's data is one contiguous region with its own checksum, seeded afresh
 * ({@link BlockChecksum#SEED}), and its zonemap is a fixed-size entry. So the regions of the columns
 * read, their directory entries (kind, encoding, nulls flag, length, checksum) and their zonemaps are
 * copied byte for byte; only what describes the whole block is written anew: the 32-byte header
 * (column count, total length), each entry's data offset, and the header checksum, which covers the
 * header, the directory and the zonemaps. The column bytes stay covered by the checksums computed
 * when the block was written, so a byte damaged anywhere between the file and the receiver's
 * {@link BlockDecoder} is caught. When every column is read in stored order the copy is the stored
 * block itself, byte for byte.
 *
 * <p>The source must be a block whose header a {@link BlockDecoder#wrap} verified (so its directory
 * lies inside it). Stateless; allocates nothing.
 */
public final class BlockProjection {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private BlockProjection() {
    }

    /**
     * The length of the projected block.
     *
     * @param block      a verified block
     * @param offset     where it starts in {@code block}
     * @param projection the columns to keep, in output order, or null for all of them as stored
     * @return bytes {@link #copy} writes
     * @throws IndexOutOfBoundsException when the projection names a column the block lacks
     */
    public static int length(final DirectBuffer block, final int offset, final int[] projection) {
        if (isWhole(block, offset, projection)) {
            return (int) block.getLong(offset + BlockLayout.TOTAL_LENGTH_OFFSET, LE);
        }
        final int columns = columnCount(block, offset);
        long position = BlockLayout.dataStart(projection.length);
        for (final int c : projection) {
            position = align8((int) position) + dataLength(block, offset, columns, c);
        }
        if (position > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a projection of " + projection.length + " columns is " + position
                    + " bytes, over the 2 GiB limit of a block");
        }
        return (int) position;
    }

    /**
     * Writes the projected block: a new header and directory, the zonemaps, checksums and data of the
     * projected columns as stored.
     *
     * @param block        a verified block
     * @param offset       where it starts in {@code block}
     * @param projection   the columns to keep, in output order (a column may repeat), or null for all of
     *                     them as stored
     * @param target       where to write; grown through {@link MutableDirectBuffer#checkLimit} when it is
     *                     expandable, else it must have room for {@link #length} bytes
     * @param targetOffset where the projected block starts in {@code target}
     * @return the projected block's length in bytes
     * @throws IndexOutOfBoundsException when the projection names a column the block lacks, or a fixed
     *                                   target is too short
     */
    public static int copy(final DirectBuffer block, final int offset, final int[] projection,
                           final MutableDirectBuffer target, final int targetOffset) {
        final int length = length(block, offset, projection);
        target.checkLimit(targetOffset + length);
        if (isWhole(block, offset, projection)) {
            target.putBytes(targetOffset, block, offset, length);
            return length;
        }
        final int columns = columnCount(block, offset);
        final int n = projection.length;
        target.putInt(targetOffset + BlockLayout.MAGIC_OFFSET, BlockLayout.MAGIC, LE);
        target.putShort(targetOffset + BlockLayout.VERSION_OFFSET, BlockLayout.VERSION, LE);
        target.putShort(targetOffset + BlockLayout.COLUMN_COUNT_OFFSET, (short) n, LE);
        target.putInt(targetOffset + BlockLayout.ROW_COUNT_OFFSET, block.getInt(offset + BlockLayout.ROW_COUNT_OFFSET, LE),
                LE);
        target.putInt(targetOffset + BlockLayout.FLAGS_OFFSET, 0, LE);
        target.putLong(targetOffset + BlockLayout.TOTAL_LENGTH_OFFSET, length, LE);
        int position = BlockLayout.dataStart(n);
        for (int i = 0; i < n; i++) {
            final int c = projection[i];
            final int entry = offset + BlockLayout.directoryEntry(c);
            final int dataLength = dataLength(block, offset, columns, c);
            final int aligned = align8(position);
            for (int p = position; p < aligned; p++) {
                target.putByte(targetOffset + p, (byte) 0);
            }
            final int targetEntry = targetOffset + BlockLayout.directoryEntry(i);
            target.putBytes(targetEntry, block, entry, BlockLayout.DIRECTORY_ENTRY_LENGTH);
            target.putLong(targetEntry + BlockLayout.ENTRY_OFFSET, aligned, LE);
            target.putBytes(targetOffset + BlockLayout.zoneMapEntry(n, i), block,
                    offset + BlockLayout.zoneMapEntry(columns, c), ZoneMap.BYTES);
            target.putBytes(targetOffset + aligned, block,
                    offset + (int) block.getLong(entry + BlockLayout.ENTRY_OFFSET, LE), dataLength);
            position = aligned + dataLength;
        }
        target.putLong(targetOffset + BlockLayout.HEADER_CHECKSUM_OFFSET,
                BlockEncoder.headerChecksum(target, targetOffset, n), LE);
        return length;
    }

    /** Whether the projection is every column in stored order, so the block goes as it is. */
    private static boolean isWhole(final DirectBuffer block, final int offset, final int[] projection) {
        if (projection == null) {
            return true;
        }
        if (projection.length != columnCount(block, offset)) {
            return false;
        }
        for (int i = 0; i < projection.length; i++) {
            if (projection[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static int columnCount(final DirectBuffer block, final int offset) {
        return block.getShort(offset + BlockLayout.COLUMN_COUNT_OFFSET, LE) & 0xFFFF;
    }

    private static int dataLength(final DirectBuffer block, final int offset, final int columns, final int c) {
        if (c < 0 || c >= columns) {
            throw new IndexOutOfBoundsException("column " + c + " of a block with " + columns + " columns");
        }
        return block.getInt(offset + BlockLayout.directoryEntry(c) + BlockLayout.ENTRY_LENGTH, LE);
    }
}
