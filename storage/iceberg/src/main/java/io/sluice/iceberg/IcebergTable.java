package io.sluice.iceberg;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockFiles;
import io.sluice.format.spi.BlockTable;
import io.sluice.parquet.ParquetTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The current snapshot of an Iceberg table whose data files are Parquet: the files, in path order, are read by a
 * {@link ParquetTable} (each row group a block, its statistics the block's zonemaps), and the bounds the manifests
 * keep for each file are the table's {@link BlockFiles}, which pruning tests first. Counts the files and blocks
 * scans read, each once. Thread-safe.
 */
public final class IcebergTable implements BlockTable, AutoCloseable {
    private final String name;
    private final ParquetTable files;
    private final List<Path> paths;
    private final ZoneMap[][] fileZoneMaps;
    private final long snapshotId;
    private final AtomicIntegerArray fileRead;
    private final AtomicIntegerArray blockRead;
    private final AtomicLong filesRead = new AtomicLong();
    private final AtomicLong blocksRead = new AtomicLong();

    /**
     * How much of the table scans have read since it opened, each file and block counted once however often read.
     *
     * @param filesRead  data files at least one block of which was read
     * @param blocksRead blocks (row groups, or parts of larger ones) read
     */
    public record Reads(long filesRead, long blocksRead) {
    }

    private IcebergTable(final String name, final ParquetTable files, final List<Path> paths,
                         final ZoneMap[][] fileZoneMaps, final long snapshotId) {
        this.name = name;
        this.files = files;
        this.paths = paths;
        this.fileZoneMaps = fileZoneMaps;
        this.snapshotId = snapshotId;
        this.fileRead = new AtomicIntegerArray(files.fileCount());
        this.blockRead = new AtomicIntegerArray(files.blockCount());
    }

    /**
     * Opens the current snapshot of {@code table} as table {@code name}: plans its files from the manifests and
     * reads their footers.
     *
     * @throws StorageException when the table has no snapshot, delete files, data files that are not local
     *                          Parquet files, or columns its data files lack or Sluice does not read, naming them
     */
    public static IcebergTable open(final String name, final Table table) {
        final Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            throw new StorageException("iceberg table " + table.name() + " has no snapshot (no data was ever"
                    + " committed to it): append data files to it first");
        }
        final List<DataFile> dataFiles = dataFiles(table);
        if (dataFiles.isEmpty()) {
            throw new StorageException("iceberg table " + table.name() + " has no data files in its current snapshot "
                    + snapshot.snapshotId() + ": append data files to it first");
        }
        final List<Path> paths = new ArrayList<>(dataFiles.size());
        for (final DataFile f : dataFiles) {
            paths.add(LocalFileIO.path(f.location()));
        }
        final ParquetTable parquet = ParquetTable.open(name, paths);
        try {
            final Schema schema = parquet.schema();
            final org.apache.iceberg.Schema icebergSchema = table.schema();
            final int[] fieldIds = new int[schema.size()];
            for (int c = 0; c < schema.size(); c++) {
                final Types.NestedField field = icebergSchema.findField(schema.field(c).name());
                if (field == null) {
                    throw new StorageException("iceberg table " + table.name() + " has no column '"
                            + schema.field(c).name() + "' of its data file " + paths.get(0) + " (its columns are "
                            + icebergSchema.columns().stream().map(Types.NestedField::name).toList() + "): Sluice"
                            + " reads data files by column name and does not follow renamed columns");
                }
                fieldIds[c] = field.fieldId();
            }
            if (icebergSchema.columns().size() != schema.size()) {
                throw new StorageException("iceberg table " + table.name() + " has columns "
                        + icebergSchema.columns().stream().map(Types.NestedField::name).toList() + " but its data file "
                        + paths.get(0) + " has " + schema.names() + ": Sluice does not read tables whose columns"
                        + " changed after files were written; rewrite the table's data files");
            }
            final ZoneMap[][] bounds = new ZoneMap[dataFiles.size()][schema.size()];
            for (int f = 0; f < dataFiles.size(); f++) {
                for (int c = 0; c < schema.size(); c++) {
                    try {
                        bounds[f][c] = FileBounds.of(dataFiles.get(f), fieldIds[c], icebergSchema.findType(fieldIds[c]),
                                schema.type(c));
                    } catch (final ClassCastException e) {
                        throw new StorageException("iceberg table " + table.name() + " column '" + schema.field(c).name()
                                + "' is " + icebergSchema.findType(fieldIds[c]) + " but its data file " + paths.get(f)
                                + " holds " + schema.type(c) + ": Sluice reads tables whose files keep the table's"
                                + " column types; rewrite the file", e);
                    }
                }
            }
            return new IcebergTable(name, parquet, List.copyOf(paths), bounds, snapshot.snapshotId());
        } catch (final RuntimeException e) {
            parquet.close();
            throw e;
        }
    }

    private static List<DataFile> dataFiles(final Table table) {
        final List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
            for (final FileScanTask task : tasks) {
                if (!task.deletes().isEmpty()) {
                    throw new StorageException("iceberg table " + table.name() + " has delete files (" + task.deletes()
                            .get(0).content() + " " + task.deletes().get(0).location() + " applies to "
                            + task.file().location() + "): Sluice does not apply position or equality deletes; compact"
                            + " the table (rewrite its data files with the deletes applied) first");
                }
                if (task.file().format() != FileFormat.PARQUET) {
                    throw new StorageException("iceberg table " + table.name() + " has data file "
                            + task.file().location() + " in " + task.file().format() + ": Sluice reads Parquet data"
                            + " files only; rewrite the table with write.format.default=parquet");
                }
                files.add(task.file().copy());
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        files.sort(Comparator.comparing(DataFile::location));
        return files;
    }

    /** The snapshot read, as Iceberg numbers it. */
    public long snapshotId() {
        return snapshotId;
    }

    /** The data files, in block order. */
    public List<Path> dataFiles() {
        return paths;
    }

    /** What scans have read so far. */
    public Reads reads() {
        return new Reads(filesRead.get(), blocksRead.get());
    }

    /** Where a block lies: its data file and row group. */
    public String blockSource(final int block) {
        return files.blockSource(block);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return files.schema();
    }

    @Override
    public int blockCount() {
        return files.blockCount();
    }

    @Override
    public int blockRowCount(final int block) {
        return files.blockRowCount(block);
    }

    @Override
    public ZoneMap zoneMap(final int block, final int column) {
        return files.zoneMap(block, column);
    }

    @Override
    public BlockFiles blockFiles() {
        return new DataFiles();
    }

    /** The data files, with the manifests' bounds. */
    private final class DataFiles implements BlockFiles {
        @Override
        public int fileCount() {
            return fileZoneMaps.length;
        }

        @Override
        public int firstBlock(final int file) {
            return files.firstBlock(file);
        }

        @Override
        public ZoneMap zoneMap(final int file, final int column) {
            return fileZoneMaps[file][column];
        }
    }

    @Override
    public Block readBlock(final int block, final int... projection) {
        counted(block);
        return files.readBlock(block, projection);
    }

    @Override
    public void readColumns(final int block, final int[] columns, final ColumnVector[] vectors) {
        counted(block);
        files.readColumns(block, columns, vectors);
    }

    @Override
    public boolean readRows(final int block, final int[] columns, final int[] rows, final int count,
                            final ColumnVector[] out) {
        return files.readRows(block, columns, rows, count, out);
    }

    private void counted(final int block) {
        if (blockRead.compareAndSet(block, 0, 1)) {
            blocksRead.incrementAndGet();
        }
        if (fileRead.compareAndSet(files.fileOf(block), 0, 1)) {
            filesRead.incrementAndGet();
        }
    }

    @Override
    public String sortKey() {
        return files.sortKey();
    }

    /** Closes the data files' readers. */
    @Override
    public void close() {
        files.close();
    }
}
