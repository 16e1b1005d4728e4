package io.sluice.storage;

import io.sluice.format.BlockChecksum;
import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A table version's statistics beyond its zonemaps ({@code statistics.bin}, beside the blocks): bytes
 * whose meaning belongs to the layer that computed them (the sketches of {@code sluice-zonemap}),
 * framed and checksummed here so that a damaged file is told apart from a missing one. Written with
 * the table ({@link TableWriter#gather}) or later ({@link Table#writeStatistics}), by a rename, so a
 * reader sees the whole file or none.
 */
public final class StatisticsFile {
    /** File name inside a table version's directory. */
    public static final String FILE = "statistics.bin";
    static final String TEMPORARY_FILE = FILE + ".tmp";
    private static final int MAGIC = 0x54534C53;
    private static final int HEADER = 12;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private StatisticsFile() {
    }

    /** Writes {@code payload} into a version's data directory, replacing any statistics it had. */
    static void write(final Path dataDir, final byte[] payload) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HEADER + payload.length + 8]);
        buffer.putInt(0, MAGIC, LE);
        buffer.putInt(4, 1, LE);
        buffer.putInt(8, payload.length, LE);
        buffer.putBytes(HEADER, payload);
        final int end = HEADER + payload.length;
        buffer.putLong(end, BlockChecksum.compute(buffer, 0, end, BlockChecksum.SEED), LE);
        final Path temporary = dataDir.resolve(TEMPORARY_FILE);
        try {
            Files.write(temporary, buffer.byteArray());
            Files.move(temporary, dataDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            throw new StorageException("cannot write " + dataDir.resolve(FILE) + ": " + e, e);
        }
    }

    /**
     * Reads and verifies a version's statistics; null when it has none.
     *
     * @throws StorageException naming the file when it is damaged (and how to write it again)
     */
    static byte[] read(final Path dataDir, final String table) {
        final Path file = dataDir.resolve(FILE);
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final NoSuchFileException e) {
            return null;
        } catch (final IOException e) {
            throw new StorageException("cannot read " + file + ": " + e, e);
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final String fix = ": compute the statistics again with `sluice analyze --store " + dataDir.getParent().getParent()
                + " --tables " + table + "`";
        if (bytes.length < HEADER + 8 || buffer.getInt(0, LE) != MAGIC) {
            throw new StorageException("statistics file " + file + " is damaged (not a statistics file)" + fix);
        }
        if (buffer.getInt(4, LE) != 1) {
            throw new StorageException("statistics file " + file + " has format " + buffer.getInt(4, LE)
                    + ", which this version of Sluice does not read" + fix);
        }
        final int length = buffer.getInt(8, LE);
        if (length < 0 || length != bytes.length - HEADER - 8) {
            throw new StorageException("statistics file " + file + " is damaged (it holds " + bytes.length
                    + " bytes, its header says " + ((long) length + HEADER + 8) + ")" + fix);
        }
        final int end = HEADER + length;
        if (buffer.getLong(end, LE) != BlockChecksum.compute(buffer, 0, end, BlockChecksum.SEED)) {
            throw new StorageException("statistics file " + file + " is damaged (its checksum does not match)" + fix);
        }
        final byte[] payload = new byte[length];
        buffer.getBytes(HEADER, payload);
        return payload;
    }
}
