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

    /** Writes the zonemaps of every block ({@code [block][column]}) into a version's data directory. */
    public static void write(final Path dataDir, final ZoneMap[][] byBlock, final int columns) {
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
            Files.write(dataDir.resolve(FILE), buffer.byteArray());
        } catch (final IOException e) {
            throw new StorageException("cannot write " + dataDir.resolve(FILE) + ": " + e, e);
        }
    }

    /** Reads and verifies a table version's zonemap index; the error says whether its size, header or checksum is wrong. */
    public static ZoneMapIndex read(final Path dataDir, final int blocks, final int columns) {
        final Path file = dataDir.resolve(FILE);
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final IOException e) {
            throw new StorageException("cannot read zonemap index " + file + ": " + e, e);
        }
        final int expected = HEADER + blocks * columns * ZoneMap.BYTES + 8;
        final String problem = problem(new UnsafeBuffer(bytes), expected, blocks, columns);
        if (problem != null) {
            throw new StorageException("zonemap index " + file + " is corrupt: " + problem
                    + "; regenerate or re-import the table");
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
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

    /** What is wrong with an index's bytes, or null when they are what the manifest describes. */
    private static String problem(final UnsafeBuffer buffer, final int expected, final int blocks, final int columns) {
        final int length = buffer.capacity();
        if (length != expected) {
            return "its size is " + length + " bytes, but " + blocks + " blocks x " + columns + " columns need "
                    + expected;
        }
        if (buffer.getInt(0, LE) != MAGIC) {
            return String.format("its magic is 0x%08x, expected 0x%08x", buffer.getInt(0, LE), MAGIC);
        }
        if (buffer.getInt(8, LE) != blocks || buffer.getInt(12, LE) != columns) {
            return "its header says " + buffer.getInt(8, LE) + " blocks x " + buffer.getInt(12, LE)
                    + " columns, the manifest " + blocks + " x " + columns;
        }
        final long stored = buffer.getLong(expected - 8, LE);
        final long computed = BlockChecksum.compute(buffer, 0, expected - 8, BlockChecksum.SEED);
        if (stored != computed) {
            return String.format("its checksum is 0x%016x, its bytes give 0x%016x (the size is right: %d bytes)",
                    stored, computed, length);
        }
        return null;
    }

    /** The zonemap of one column in one block. */
    public ZoneMap get(final int block, final int column) {
        return byBlock[block][column];
    }
}
