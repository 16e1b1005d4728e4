package io.sluice.storage;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.StoredBlock;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * A stored table: its manifest, the zonemaps of every block (in memory, from {@code zonemaps.bin}, so
 * planning opens no block file) and its block files, opened when a read needs them through a
 * {@link BlockFileCache} that bounds how many stay open: Sluice's own {@link BlockTable}. Reads are
 * safe from several threads.
 *
 * <p>A table reads the version its manifest named when it was opened, to the end. When the table is
 * replaced meanwhile (a new version written, the old one deleted), files it still has open keep
 * serving the old rows; a block it must open again fails with an error saying the table was
 * replaced, so a reader never mixes blocks of two versions.
 */
public final class Table implements BlockTable, AutoCloseable {
    /** Times {@link #open} reads the manifest again when a replacement removed the version it named. */
    private static final int OPEN_ATTEMPTS = 5;

    private final Path dir;
    private final TableManifest manifest;
    private final Path dataDir;
    private final ZoneMapIndex zoneMaps;
    private final BlockFileCache cache;
    private final BlockFileSource source;
    private final BlockFileCache.Handle[] open;
    /** Per block, the columns whose checksum passed, kept while files close and open again (allocated at first open). */
    private final boolean[][] verified;
    private final IntFunction<BlockFile> opener = this::openFile;
    /** The version's statistics file, read at first use; {@link #NO_STATISTICS} when it has none. */
    private volatile byte[] statistics;
    private static final byte[] NO_STATISTICS = new byte[0];

    private Table(final Path dir, final TableManifest manifest, final ZoneMapIndex zoneMaps,
                  final BlockFileCache cache, final BlockFileSource source) {
        this.dir = dir;
        this.manifest = manifest;
        this.dataDir = manifest.dataDir(dir);
        this.zoneMaps = zoneMaps;
        this.cache = cache;
        this.source = source;
        this.open = new BlockFileCache.Handle[manifest.blockCount()];
        this.verified = new boolean[manifest.blockCount()][];
    }

    /** Opens a table directory through the process's {@link BlockFileCache#shared() shared} cache. */
    public static Table open(final Path dir) {
        return open(dir, BlockFileCache.shared());
    }

    /**
     * Opens a table directory: reads the manifest and the zonemap index of the version it names, and
     * opens no block file.
     */
    public static Table open(final Path dir, final BlockFileCache cache) {
        return open(dir, cache, BlockFileSource.LOCAL);
    }

    /**
     * As {@link #open(Path, BlockFileCache)}, the block files opened through {@code source} (for a table whose blocks
     * live elsewhere, e.g. on object storage, and whose directory holds only its manifest and zonemap index).
     */
    public static Table open(final Path dir, final BlockFileCache cache, final BlockFileSource source) {
        for (int attempt = 1; ; attempt++) {
            final TableManifest manifest = TableManifest.read(dir);
            final Path dataDir = manifest.dataDir(dir);
            try {
                return new Table(dir, manifest,
                        ZoneMapIndex.read(dataDir, manifest.blockCount(), manifest.schema().size()), cache, source);
            } catch (final StorageException e) {
                // A writer replaced the version between reading the manifest and its index: read the new one.
                if (attempt == OPEN_ATTEMPTS || Files.isDirectory(dataDir) || !replaced(dir, manifest)) {
                    throw e;
                }
            }
        }
    }

    private static boolean replaced(final Path dir, final TableManifest seen) {
        try {
            return TableManifest.read(dir).version() != seen.version();
        } catch (final StorageException e) {
            return false;
        }
    }

    /** The table's name. */
    @Override
    public String name() {
        return manifest.name();
    }

    /**
     * The bytes of this version's {@link StatisticsFile} (written with the table or by
     * {@link #writeStatistics}), or null when it has none.
     *
     * @throws io.sluice.format.StorageException when the file is damaged, naming it and the command that rewrites it
     */
    @Override
    public byte[] statistics() {
        byte[] s = statistics;
        if (s == null) {
            final byte[] read = StatisticsFile.read(dataDir, name());
            s = read == null ? NO_STATISTICS : read;
            statistics = s;
        }
        return s == NO_STATISTICS ? null : s;
    }

    /**
     * Stores statistics computed after the table was written (replacing any it had), atomically; the
     * caller holds the store's {@link StoreLock}, as every writer does.
     */
    public void writeStatistics(final byte[] payload) {
        StatisticsFile.write(dataDir, payload);
        statistics = payload.clone();
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

    /** The version of the table this reads (0 for a table of format 1). */
    public int version() {
        return manifest.version();
    }

    /** The directory of this version's block files and zonemap index. */
    public Path dataDir() {
        return dataDir;
    }

    /** The path of a block's file. */
    public Path blockPath(final int block) {
        return dataDir.resolve(TableWriter.blockFileName(block));
    }

    /** The blocks whose file is missing, from one listing of the data directory (opens no block file). */
    public List<Integer> missingBlocks() {
        final Set<String> present = new HashSet<>();
        try (Stream<Path> files = Files.list(dataDir)) {
            files.forEach(p -> present.add(p.getFileName().toString()));
        } catch (final IOException e) {
            throw new StorageException("cannot list the block files of table '" + name() + "' in " + dataDir + ": " + e, e);
        }
        final List<Integer> missing = new ArrayList<>();
        for (int b = 0; b < blockCount(); b++) {
            if (!present.contains(TableWriter.blockFileName(b))) {
                missing.add(b);
            }
        }
        return missing;
    }

    /**
     * A block's file, opened (and its header verified) when no open one is cached; close the handle
     * when done with the file.
     */
    public BlockFileCache.Handle acquire(final int block) {
        if (block < 0 || block >= blockCount()) {
            throw new IndexOutOfBoundsException("block " + block + " of table '" + name() + "' with "
                    + blockCount() + " blocks");
        }
        return cache.acquire(open, block, opener);
    }

    private BlockFile openFile(final int block) {
        try {
            if (verified[block] == null) {
                verified[block] = new boolean[schema().size()];
            }
            return source.open(this, block, verified[block]);
        } catch (final StorageException e) {
            if (!Files.isDirectory(dataDir) || replaced(dir, manifest)) {
                throw new StorageException("table '" + name() + "' was replaced while it was being read (version "
                        + manifest.version() + " of " + dir + " is gone, block " + block
                        + " was not open): run the query again to read the new version", e);
            }
            throw e;
        }
    }

    /** Reads the given columns (all when none are given) of a block, verifying their checksums. */
    @Override
    public Block readBlock(final int block, final int... projection) {
        try (BlockFileCache.Handle handle = acquire(block)) {
            return handle.file().read(schema(), projection.length == 0 ? null : projection);
        }
    }

    /** Reads the columns into the vectors' arrays where they fit, verifying each column once. */
    @Override
    public void readColumns(final int block, final int[] columns, final ColumnVector[] vectors) {
        try (BlockFileCache.Handle handle = acquire(block)) {
            final BlockFile file = handle.file();
            for (int i = 0; i < columns.length; i++) {
                vectors[i] = file.readColumn(columns[i], schema().type(columns[i]), vectors[i]);
            }
        }
    }

    /** Reads the rows straight from the block's mapped file. */
    @Override
    public boolean readRows(final int block, final int[] columns, final int[] rows, final int count,
                            final ColumnVector[] out) {
        try (BlockFileCache.Handle handle = acquire(block)) {
            final BlockFile file = handle.file();
            for (int i = 0; i < columns.length; i++) {
                out[i] = file.readRows(columns[i], schema().type(columns[i]), rows, count);
            }
        }
        return true;
    }

    /**
     * The stored bytes of the columns {@link #readBlock} reads for the same arguments, copied from the
     * block's file when they are sent (see {@link StoredColumns}); opens nothing now.
     */
    @Override
    public StoredBlock storedBlock(final int block, final int... projection) {
        if (block < 0 || block >= blockCount()) {
            throw new IndexOutOfBoundsException("block " + block + " of table '" + name() + "' with "
                    + blockCount() + " blocks");
        }
        final int columns = schema().size();
        for (final int c : projection) {
            if (c < 0 || c >= columns) {
                throw new IndexOutOfBoundsException("column " + c + " of table '" + name() + "' with " + columns
                        + " columns");
            }
        }
        return new StoredColumns(this, block, projection.length == 0 ? null : projection.clone());
    }

    /** Closes the block files this table has open (those in use once their readers release them). */
    @Override
    public void close() {
        cache.drop(open);
    }
}
