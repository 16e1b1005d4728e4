package io.sluice.parquet;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * A table of one or more Parquet files with the same columns. Each row group is a block, or several
 * blocks of {@link Block#MAX_ROWS} rows when it holds more; a block's zonemaps are its row group's
 * column statistics (computed from the values, once, where the file has none that bound them). A read
 * loads only the chunks of the columns asked for. Thread-safe: readers are pooled per file.
 */
public final class ParquetTable implements BlockTable, AutoCloseable {
    private final String name;
    private final Schema schema;
    private final List<ParquetFile> files;
    private final int[] blockFile;
    private final int[] blockRowGroup;
    private final int[] blockFirstRow;
    private final int[] blockRows;
    private final ZoneMap[][] zoneMaps;
    private volatile SortKey sortKey;

    private record SortKey(String column) {
    }

    private ParquetTable(final String name, final Schema schema, final List<ParquetFile> files, final int[] blockFile,
                         final int[] blockRowGroup, final int[] blockFirstRow, final int[] blockRows,
                         final ZoneMap[][] zoneMaps) {
        this.name = name;
        this.schema = schema;
        this.files = files;
        this.blockFile = blockFile;
        this.blockRowGroup = blockRowGroup;
        this.blockFirstRow = blockFirstRow;
        this.blockRows = blockRows;
        this.zoneMaps = zoneMaps;
    }

    /**
     * Opens table {@code name} over {@code files}, in that order: reads their footers.
     *
     * @throws StorageException when a file cannot be read, has a column Sluice does not read, or has other
     *                          columns than the first file, naming the file
     */
    public static ParquetTable open(final String name, final List<Path> paths) {
        if (paths.isEmpty()) {
            throw new StorageException("table '" + name + "' has no parquet files");
        }
        final List<ParquetFile> files = new ArrayList<>();
        try {
            Schema schema = null;
            for (final Path p : paths) {
                final ParquetFile file = ParquetFile.open(p);
                files.add(file);
                final List<Field> fields = new ArrayList<>();
                for (final ParquetColumn c : file.columns()) {
                    fields.add(c.field());
                }
                final Schema fileSchema = new Schema(fields);
                if (schema == null) {
                    schema = fileSchema;
                } else if (!schema.equals(fileSchema)) {
                    throw new StorageException("parquet file " + p + " of table '" + name + "' has columns " + fileSchema
                            + ", but " + paths.get(0) + " has " + schema + ": every file of a table must have the"
                            + " same columns in the same order; move the file out of the table's folder");
                }
            }
            return blocksOf(name, schema, List.copyOf(files));
        } catch (final RuntimeException e) {
            for (final ParquetFile f : files) {
                f.close();
            }
            throw e;
        }
    }

    private static ParquetTable blocksOf(final String name, final Schema schema, final List<ParquetFile> files) {
        int count = 0;
        for (final ParquetFile f : files) {
            for (final BlockMetaData g : f.rowGroups()) {
                count += (int) ((g.getRowCount() + Block.MAX_ROWS - 1) / Block.MAX_ROWS);
            }
        }
        final int[] blockFile = new int[count];
        final int[] blockRowGroup = new int[count];
        final int[] blockFirstRow = new int[count];
        final int[] blockRows = new int[count];
        final ZoneMap[][] zoneMaps = new ZoneMap[count][];
        int b = 0;
        for (int f = 0; f < files.size(); f++) {
            final ParquetFile file = files.get(f);
            final List<BlockMetaData> groups = file.rowGroups();
            for (int g = 0; g < groups.size(); g++) {
                final BlockMetaData group = groups.get(g);
                final long groupRows = group.getRowCount();
                for (long first = 0; first < groupRows; first += Block.MAX_ROWS) {
                    final int rows = (int) Math.min(Block.MAX_ROWS, groupRows - first);
                    blockFile[b] = f;
                    blockRowGroup[b] = g;
                    blockFirstRow[b] = (int) first;
                    blockRows[b] = rows;
                    final ZoneMap[] maps = new ZoneMap[schema.size()];
                    for (int c = 0; c < maps.length; c++) {
                        final ParquetColumn column = file.columns().get(c);
                        maps[c] = ParquetZoneMaps.of(column, chunkStatistics(group, column), groupRows, rows);
                    }
                    zoneMaps[b] = maps;
                    b++;
                }
            }
        }
        return new ParquetTable(name, schema, files, blockFile, blockRowGroup, blockFirstRow, blockRows, zoneMaps);
    }

    private static Statistics<?> chunkStatistics(final BlockMetaData group, final ParquetColumn column) {
        final ColumnPath path = ColumnPath.get(column.descriptor().getPath());
        for (final ColumnChunkMetaData chunk : group.getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk.getStatistics();
            }
        }
        return null;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public int blockCount() {
        return blockRows.length;
    }

    @Override
    public int blockRowCount(final int block) {
        return blockRows[block];
    }

    /** Number of files, in the order their row groups are blocks. */
    public int fileCount() {
        return files.size();
    }

    /**
     * The first block of a file; its blocks run up to the first block of the next file.
     *
     * @param file 0 to {@link #fileCount()}; {@code fileCount()} gives {@link #blockCount()}
     */
    public int firstBlock(final int file) {
        int lo = 0;
        int hi = blockFile.length;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (blockFile[mid] < file) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The file a block lies in, 0 to {@link #fileCount()} - 1. */
    public int fileOf(final int block) {
        return blockFile[block];
    }

    /** Where a block lies: the file, row group and first row, for errors and tests. */
    public String blockSource(final int block) {
        return "parquet file " + files.get(blockFile[block]).path() + " row group " + blockRowGroup[block]
                + (blockFirstRow[block] == 0 && blockRows[block] < Block.MAX_ROWS ? "" : " from row " + blockFirstRow[block]);
    }

    @Override
    public ZoneMap zoneMap(final int block, final int column) {
        final ZoneMap known = zoneMaps[block][column];
        if (known != null) {
            return known;
        }
        // The file's statistics do not bound this chunk: the values do. ZoneMap is immutable, so a race
        // between two threads computing it only costs a second read.
        final ZoneMap computed = ZoneMap.of(readBlock(block, column).column(0));
        zoneMaps[block][column] = computed;
        return computed;
    }

    @Override
    public Block readBlock(final int block, final int... projection) {
        final int[] columns = projection.length == 0 ? all() : projection;
        final ParquetFile file = files.get(blockFile[block]);
        final List<ColumnDescriptor> read = new ArrayList<>();
        for (final int c : columns) {
            final ColumnDescriptor d = file.columns().get(c).descriptor();
            if (!read.contains(d)) {
                read.add(d);
            }
        }
        final int rows = blockRows[block];
        final ColumnVector[] vectors = new ColumnVector[columns.length];
        try (PageReadStore pages = file.readRowGroup(blockRowGroup[block], read)) {
            for (int i = 0; i < columns.length; i++) {
                final int earlier = indexOf(columns, columns[i], i);
                if (earlier >= 0) {
                    vectors[i] = vectors[earlier];
                    continue;
                }
                final ParquetColumn column = file.columns().get(columns[i]);
                final ColumnDescriptor d = column.descriptor();
                vectors[i] = PageDecoder.read(column, pages.getPageReader(d), blockFirstRow[block], rows);
            }
        } catch (final IOException | RuntimeException e) {
            if (e instanceof StorageException s) {
                throw s;
            }
            throw new StorageException(blockSource(block) + " (block " + block + " of table '" + name + "') cannot be"
                    + " read: " + e.getMessage() + "; the file is damaged or truncated: write it again", e);
        }
        final ZoneMap[] maps = new ZoneMap[columns.length];
        for (int i = 0; i < columns.length; i++) {
            final ZoneMap known = zoneMaps[block][columns[i]];
            maps[i] = known != null ? known : ZoneMap.of(vectors[i]);
        }
        return new Block(rows, vectors, maps);
    }

    private static int indexOf(final int[] columns, final int column, final int before) {
        for (int i = 0; i < before; i++) {
            if (columns[i] == column) {
                return i;
            }
        }
        return -1;
    }

    private int[] all() {
        final int[] all = new int[schema.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /**
     * The first column, in schema order, whose rows are in ascending order across the whole table: its
     * zonemaps ascend without overlap and hold no nulls, and its values, read once when first asked,
     * never decrease. Parquet writers rarely record a sort order, and the engine relies on a sort key
     * for colocation and for treating batches as sorted, so it is verified, never guessed.
     */
    @Override
    public String sortKey() {
        SortKey known = sortKey;
        if (known == null) {
            known = new SortKey(findSortKey());
            sortKey = known;
        }
        return known.column();
    }

    private String findSortKey() {
        if (blockCount() < 2) {
            return null;
        }
        for (int c = 0; c < schema.size(); c++) {
            if (zoneMapsAscend(c) && valuesAscend(c)) {
                return schema.field(c).name();
            }
        }
        return null;
    }

    private boolean zoneMapsAscend(final int column) {
        final TypeKind kind = schema.type(column).kind();
        ZoneMap previous = null;
        for (int b = 0; b < blockCount(); b++) {
            final ZoneMap z = zoneMaps[b][column];
            if (z == null || z.nullCount() > 0 || !z.hasValues()) {
                return false;
            }
            if (previous != null && kind.compareKeys(previous.max(), z.min()) > 0) {
                return false;
            }
            previous = z;
        }
        return true;
    }

    private boolean valuesAscend(final int column) {
        final TypeKind kind = schema.type(column).kind();
        if (!kind.isLong() && !kind.isInt()) {
            return false;
        }
        long last = Long.MIN_VALUE;
        for (int b = 0; b < blockCount(); b++) {
            final ColumnVector v = readBlock(b, column).column(0);
            for (int r = 0; r < v.rowCount(); r++) {
                final long key = v.key(r);
                if (key < last) {
                    return false;
                }
                last = key;
            }
        }
        return true;
    }

    /** Closes the files' pooled readers. */
    @Override
    public void close() {
        for (final ParquetFile f : files) {
            f.close();
        }
    }
}
