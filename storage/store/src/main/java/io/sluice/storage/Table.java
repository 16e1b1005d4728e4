package io.sluice.storage;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A stored table: its manifest, the zonemaps of every block, and its block files, mapped on first
 * read and kept mapped until {@link #close()}: Sluice's own {@link BlockTable}. Reads are safe from several
 * threads.
 */
public final class Table implements BlockTable, AutoCloseable {
    private final Path dir;
    private final TableManifest manifest;
    private final ZoneMapIndex zoneMaps;
    private final AtomicReferenceArray<BlockFile> files;

    private Table(final Path dir, final TableManifest manifest, final ZoneMapIndex zoneMaps) {
        this.dir = dir;
        this.manifest = manifest;
        this.zoneMaps = zoneMaps;
        this.files = new AtomicReferenceArray<>(manifest.blockCount());
    }

    /** Opens a table directory (reads the manifest and the zonemap index, maps nothing yet). */
    public static Table open(final Path dir) {
        final TableManifest manifest = TableManifest.read(dir);
        for (int b = 0; b < manifest.blockCount(); b++) {
            if (!Files.isRegularFile(dir.resolve(TableWriter.blockFileName(b)))) {
                throw new StorageException("table '" + manifest.name() + "' lacks block file "
                        + dir.resolve(TableWriter.blockFileName(b)) + " (block " + b + " of " + manifest.blockCount()
                        + "); regenerate or re-import the table");
            }
        }
        return new Table(dir, manifest, ZoneMapIndex.read(dir, manifest.blockCount(), manifest.schema().size()));
    }

    /** The table's name. */
    @Override
    public String name() {
        return manifest.name();
    }

    /** The table's directory. */
    public Path dir() {
        return dir;
    }

    /** The table's schema. */
    @Override
    public Schema schema() {
        return manifest.schema();
    }

    /** The manifest. */
    public TableManifest manifest() {
        return manifest;
    }

    /** Total rows. */
    @Override
    public long rowCount() {
        return manifest.rowCount();
    }

    /** Number of blocks. */
    @Override
    public int blockCount() {
        return manifest.blockCount();
    }

    /** Bytes of all block files. */
    public long bytes() {
        return manifest.bytes();
    }

    /** The column rows were sorted by when written, or null. */
    @Override
    public String sortKey() {
        return manifest.sortKey();
    }

    /** Rows in a block (from the zonemap index). */
    @Override
    public int blockRowCount(final int block) {
        return zoneMaps.get(block, 0).rowCount();
    }

    /** The zonemap of one column in one block, from the zonemap index. */
    @Override
    public ZoneMap zoneMap(final int block, final int column) {
        return zoneMaps.get(block, column);
    }

    /** The zonemaps of one column, one per block in block order. */
    @Override
    public ZoneMap[] zoneMaps(final int column) {
        final ZoneMap[] result = new ZoneMap[blockCount()];
        for (int b = 0; b < result.length; b++) {
            result[b] = zoneMaps.get(b, column);
        }
        return result;
    }

    /** The path of a block's file. */
    public Path blockPath(final int block) {
        return dir.resolve(TableWriter.blockFileName(block));
    }

    /** A block's file, mapped and header-verified on first use. */
    public BlockFile blockFile(final int block) {
        if (block < 0 || block >= blockCount()) {
            throw new IndexOutOfBoundsException("block " + block + " of table '" + name() + "' with "
                    + blockCount() + " blocks");
        }
        BlockFile file = files.get(block);
        if (file == null) {
            final BlockFile opened = BlockFile.open(blockPath(block), block);
            if (files.compareAndSet(block, null, opened)) {
                file = opened;
            } else {
                opened.close();
                file = files.get(block);
            }
        }
        return file;
    }

    /** Reads the given columns (all when none are given) of a block, verifying their checksums. */
    @Override
    public Block readBlock(final int block, final int... projection) {
        return blockFile(block).read(schema(), projection.length == 0 ? null : projection);
    }

    @Override
    public void close() {
        for (int b = 0; b < files.length(); b++) {
            final BlockFile file = files.getAndSet(b, null);
            if (file != null) {
                file.close();
            }
        }
    }
}
