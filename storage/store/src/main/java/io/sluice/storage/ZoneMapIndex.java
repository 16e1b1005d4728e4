package io.sluice.storage;

import io.sluice.format.BlockChecksum;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Every block's zonemaps of one table in one small checksummed file ({@code zonemaps.bin}), so a
 * planner reads a table's statistics without opening its block files. Each block file carries the
 * same zonemaps in its header.
 */
public final class ZoneMapIndex {
    /** File name inside a table directory. */
    public static final String FILE = "zonemaps.bin";
    private static final int MAGIC = 0x5A434C53;
    private static final int HEADER = 16;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final ZoneMap[][] byBlock;

    private ZoneMapIndex(final ZoneMap[][] byBlock) {
        this.byBlock = byBlock;
    }

    /** Writes the zonemaps of every block ({@code [block][column]}). */
    public static void write(final Path tableDir, final ZoneMap[][] byBlock, final int columns) {
        final int length = HEADER + byBlock.length * columns * ZoneMap.BYTES + 8;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        buffer.putInt(0, MAGIC, LE);
        buffer.putInt(4, 1, LE);
        buffer.putInt(8, byBlock.length, LE);
        buffer.putInt(12, columns, LE);
        int p = HEADER;
        for (final ZoneMap[] block : byBlock) {
            for (final ZoneMap z : block) {
                buffer.putLong(p, z.min(), LE);
                buffer.putLong(p + 8, z.max(), LE);
                buffer.putInt(p + 16, z.nullCount(), LE);
                buffer.putInt(p + 20, z.rowCount(), LE);
                p += ZoneMap.BYTES;
            }
        }
        buffer.putLong(p, BlockChecksum.compute(buffer, 0, p, BlockChecksum.SEED), LE);
        try {
            Files.write(tableDir.resolve(FILE), buffer.byteArray());
        } catch (final IOException e) {
            throw new StorageException("cannot write " + tableDir.resolve(FILE) + ": " + e, e);
        }
    }

    /** Reads and verifies a table's zonemap index. */
    public static ZoneMapIndex read(final Path tableDir, final int blocks, final int columns) {
        final Path file = tableDir.resolve(FILE);
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final IOException e) {
            throw new StorageException("cannot read zonemap index " + file + ": " + e, e);
        }
        final int expected = HEADER + blocks * columns * ZoneMap.BYTES + 8;
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (bytes.length != expected || buffer.getInt(0, LE) != MAGIC || buffer.getInt(8, LE) != blocks
                || buffer.getInt(12, LE) != columns
                || buffer.getLong(expected - 8, LE) != BlockChecksum.compute(buffer, 0, expected - 8, BlockChecksum.SEED)) {
            throw new StorageException("zonemap index " + file + " is corrupt (" + bytes.length + " bytes, expected "
                    + expected + " for " + blocks + " blocks x " + columns
                    + " columns, or a checksum mismatch); regenerate or re-import the table");
        }
        final ZoneMap[][] byBlock = new ZoneMap[blocks][columns];
        int p = HEADER;
        for (int b = 0; b < blocks; b++) {
            for (int c = 0; c < columns; c++) {
                byBlock[b][c] = new ZoneMap(buffer.getLong(p, LE), buffer.getLong(p + 8, LE),
                        buffer.getInt(p + 16, LE), buffer.getInt(p + 20, LE));
                p += ZoneMap.BYTES;
            }
        }
        return new ZoneMapIndex(byBlock);
    }

    /** The zonemap of one column in one block. */
    public ZoneMap get(final int block, final int column) {
        return byBlock[block][column];
    }
}
