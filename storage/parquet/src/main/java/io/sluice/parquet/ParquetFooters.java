package io.sluice.parquet;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;

/**
 * Reads a Parquet file's footer without Hadoop: for callers that need its row groups' statistics as they are
 * (full string bounds, not zonemap keys), such as a table format recording a file's bounds in its manifests.
 */
public final class ParquetFooters {
    private ParquetFooters() {
    }

    /**
     * The footer of {@code path}.
     *
     * @throws StorageException when the file cannot be read or is not a Parquet file, naming it
     */
    public static ParquetMetadata read(final Path path) {
        try (ParquetFileReader reader = new ParquetFileReader(new LocalInputFile(path),
                ReadOptions.of(new ParquetCodecs(path.toString())))) {
            return reader.getFooter();
        } catch (final IOException | RuntimeException e) {
            throw new StorageException("parquet file " + path + " cannot be read (" + e.getMessage() + "): it is"
                    + " damaged, truncated or not a Parquet file; write it again", e);
        }
    }
}
