package io.sluice.storage;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.BlockLayout;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.MappedBytes;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One block stored in its own file, memory-mapped through Chronicle Bytes and read through an
 * Agrona buffer over the mapping. Opening verifies the header; reading a column verifies that
 * column's checksum. The mapping and the file's descriptor live until {@link #close()}, which frees
 * both before it returns (Chronicle's background releaser is switched off, unless the process chose
 * otherwise with {@code -Dbackground.releaser}); vectors read from it are copies and outlive it.
 */
public final class BlockFile implements AutoCloseable {
    /** Chronicle's switch for releasing mappings and descriptors on a background thread. */
    static final String BACKGROUND_RELEASER = "background.releaser";
    private static final long PAGE = 4096;

    static {
        // Closing a block file must free its descriptor and mapping before close returns, or a scan
        // of more blocks than the process may map runs ahead of Chronicle's background releaser.
        // Chronicle reads the switch once, when it first releases anything; nothing of it runs before this.
        if (System.getProperty(BACKGROUND_RELEASER) == null) {
            System.setProperty(BACKGROUND_RELEASER, "false");
        }
    }
    private final Path path;
    private final long block;
    private final MappedBytes mapped;
    private final UnsafeBuffer buffer;
    /** Wrapped once at open; its reads only read its fields, so threads share it. */
    private final BlockDecoder decoder = new BlockDecoder();
    /**
     * Columns whose checksum has passed: the file is read-only and never rewritten in place, so once is
     * enough; shared by every open of the block when the opener keeps it (see {@link #open(Path, long, boolean[])}).
     */
    private boolean[] verified;

    private BlockFile(final Path path, final long block, final MappedBytes mapped, final UnsafeBuffer buffer) {
        this.path = path;
        this.block = block;
        this.mapped = mapped;
        this.buffer = buffer;
    }

    /** Writes a block to a new file through a mapping of exactly its encoded length. */
    public static void write(final Path path, final Block block, final BlockEncoder encoder) {
        final int length = encoder.prepare(block);
        final File file = path.toFile();
        try {
            Files.deleteIfExists(path);
            // A chunked mapping of one chunk that holds the whole block: unlike a single-mapped
            // file, Chronicle unmaps it on release, so a long write does not pile up mappings.
            final long chunk = (Math.max(length, 8) + PAGE - 1) / PAGE * PAGE;
            final MappedBytes bytes = MappedBytes.mappedBytes(file, chunk, 0);
            try {
                bytes.singleThreadedCheckDisabled(true);
                encoder.writeTo(new UnsafeBuffer(bytes.addressForWrite(0), length), 0);
            } finally {
                bytes.releaseLast();
            }
            // A mapping grows the file to whole pages; the block's length is its exact size.
            try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
                raf.setLength(length);
            }
        } catch (final IOException e) {
            throw new StorageException("cannot write block file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Maps a block file and verifies its header.
     *
     * @param block the block's index in its table, for error messages
     */
    public static BlockFile open(final Path path, final long block) {
        return open(path, block, null);
    }

    /**
     * Maps a block file and verifies its header, skipping the checksum of columns marked in
     * {@code verified} and marking those it checks, so a block opened again after it was closed is not
     * verified twice. The header is verified at every open.
     *
     * @param block    the block's index in its table, for error messages
     * @param verified one flag per column of the block, kept by the caller across opens; or null
     */
    public static BlockFile open(final Path path, final long block, final boolean[] verified) {
        final long size;
        try {
            size = Files.size(path);
        } catch (final IOException e) {
            throw new StorageException("cannot read block file " + path + " (block " + block + "): " + e, e);
        }
        if (size < BlockLayout.HEADER_LENGTH) {
            throw new CorruptBlockException(path.toString(), block,
                    "truncated: " + size + " bytes, the header alone needs " + BlockLayout.HEADER_LENGTH);
        }
        if (size > Integer.MAX_VALUE) {
            throw new CorruptBlockException(path.toString(), block, "file of " + size + " bytes is larger than any block");
        }
        final MappedBytes mapped;
        try {
            mapped = MappedBytes.readOnly(path.toFile());
        } catch (final IOException | RuntimeException e) {
            throw new StorageException("cannot map block file " + path + " (block " + block + "): " + e, e);
        }
        try {
            mapped.singleThreadedCheckDisabled(true);
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped.addressForRead(0), (int) size);
            final BlockFile file = new BlockFile(path, block, mapped, buffer);
            file.decoder.wrap(buffer, 0, (int) size, path.toString(), block);
            file.verified = verified != null && verified.length == file.decoder.columnCount()
                    ? verified : new boolean[file.decoder.columnCount()];
            return file;
        } catch (final RuntimeException e) {
            mapped.releaseLast();
            throw e;
        }
    }

    /** The file's path. */
    public Path path() {
        return path;
    }

    /** Rows in the block. */
    public int rowCount() {
        return decoder.rowCount();
    }

    /** The whole encoded block, valid until {@link #close()}: what is sent when a block is routed whole. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** The stored zonemap of a column. */
    public ZoneMap zoneMap(final int column) {
        return decoder.zoneMap(column);
    }

    /**
     * Reads the projected columns (all when {@code projection} is null), verifying each column's
     * checksum on its first read since open. Safe to call from several threads.
     */
    public Block read(final Schema schema, final int[] projection) {
        return decoder.decode(schema, projection, verified);
    }

    /**
     * Reads one column into a reused vector's array where it fits (see
     * {@link BlockDecoder#column(int, ColumnType, boolean, ColumnVector)}): the allocation-free path
     * of a scan.
     */
    public ColumnVector readColumn(final int column, final ColumnType type, final ColumnVector reuse) {
        final ColumnVector vector = decoder.column(column, type, !verified[column], reuse);
        verified[column] = true;
        return vector;
    }

    /**
     * Reads some rows of one column straight from the mapping (see
     * {@link BlockDecoder#rows(int, ColumnType, boolean, int[], int)}), verifying the column's checksum
     * on its first read since open.
     */
    public ColumnVector readRows(final int column, final ColumnType type, final int[] rows, final int count) {
        final ColumnVector vector = decoder.rows(column, type, !verified[column], rows, count);
        verified[column] = true;
        return vector;
    }

    @Override
    public void close() {
        mapped.releaseLast();
    }
}
