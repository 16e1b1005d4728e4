package io.sluice.parquet;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * One Parquet file: its footer, read once when opened, the Sluice columns it maps to, and a pool of
 * readers so that several scan threads read its row groups at once (a parquet-java reader is not
 * thread-safe; each borrowed one holds an open file).
 */
final class ParquetFile implements AutoCloseable {
    private final Path path;
    private final InputFile input;
    private final ParquetReadOptions options;
    private final ParquetMetadata footer;
    private final List<ParquetColumn> columns;
    private final ConcurrentLinkedQueue<ParquetFileReader> idle = new ConcurrentLinkedQueue<>();

    private ParquetFile(final Path path, final InputFile input, final ParquetReadOptions options,
                        final ParquetMetadata footer, final List<ParquetColumn> columns) {
        this.path = path;
        this.input = input;
        this.options = options;
        this.footer = footer;
        this.columns = columns;
    }

    /**
     * Reads the footer of {@code path} and maps its columns.
     *
     * @throws StorageException when the file cannot be read or is not a Parquet file, or a column has a type
     *                          Sluice does not read, naming the file
     */
    static ParquetFile open(final Path path) {
        final InputFile input = new LocalInputFile(path);
        final ParquetReadOptions options = ReadOptions.of(new ParquetCodecs(path.toString()));
        final ParquetMetadata footer;
        try (ParquetFileReader reader = new ParquetFileReader(input, options)) {
            footer = reader.getFooter();
        } catch (final IOException | RuntimeException e) {
            throw new StorageException("parquet file " + path + " cannot be read (" + e.getMessage() + "): it is"
                    + " damaged, truncated or not a Parquet file; write it again", e);
        }
        final MessageType schema = footer.getFileMetaData().getSchema();
        final List<ParquetColumn> columns = new ArrayList<>();
        for (final Type field : schema.getFields()) {
            final ColumnDescriptor descriptor = field.isPrimitive()
                    ? schema.getColumnDescription(new String[] {field.getName()}) : null;
            columns.add(ParquetColumn.of(path.toString(), field, descriptor));
        }
        if (columns.isEmpty()) {
            throw new StorageException("parquet file " + path + " has no columns");
        }
        return new ParquetFile(path, input, options, footer, List.copyOf(columns));
    }

    Path path() {
        return path;
    }

    List<ParquetColumn> columns() {
        return columns;
    }

    List<BlockMetaData> rowGroups() {
        return footer.getBlocks();
    }

    /**
     * Reads the chunks of {@code read} in row group {@code rowGroup} into memory (their pages decompress as
     * they are decoded); the caller closes the store.
     */
    PageReadStore readRowGroup(final int rowGroup, final List<ColumnDescriptor> read) throws IOException {
        ParquetFileReader reader = idle.poll();
        if (reader == null) {
            // The constructor that takes the footer read already cannot be named without Hadoop's
            // Configuration on the compile path (an overload takes one); a pool holds a reader per thread
            // at most, so reading the footer again per reader is cheap.
            reader = new ParquetFileReader(input, options);
        }
        boolean pooled = false;
        try {
            reader.setRequestedSchema(read);
            final PageReadStore pages = reader.readRowGroup(rowGroup);
            idle.add(reader);
            pooled = true;
            return pages;
        } finally {
            if (!pooled) {
                reader.close();
            }
        }
    }

    /** Closes the pooled readers and their files. */
    @Override
    public void close() {
        ParquetFileReader reader;
        while ((reader = idle.poll()) != null) {
            try {
                reader.close();
            } catch (final IOException e) {
                throw new StorageException("parquet file " + path + " does not close: " + e.getMessage(), e);
            }
        }
    }
}
