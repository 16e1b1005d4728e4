package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Iceberg's file access over the local file system, without Hadoop: locations are absolute paths or
 * {@code file:} URIs. Iceberg's own local files are Hadoop's; this keeps Hadoop off the class path.
 */
public final class LocalFileIO implements FileIO {
    /** Iceberg instantiates a FileIO by its class name with no arguments. */
    public LocalFileIO() {
    }

    /**
     * The local path of a location: {@code file:/p}, {@code file:///p} or {@code /p}.
     *
     * @throws StorageException when the location is on another file system (s3://, hdfs://, ...), naming it
     */
    public static Path path(final String location) {
        if (location.startsWith("file://")) {
            return Path.of(location.substring("file://".length()));
        }
        if (location.startsWith("file:")) {
            return Path.of(location.substring("file:".length()));
        }
        if (location.startsWith("/")) {
            return Path.of(location);
        }
        throw new StorageException("iceberg file " + location + " is not on the local file system: Sluice reads"
                + " Iceberg metadata and data files from local paths (file:/...) only; copy the table to a local or"
                + " shared folder, or read its Parquet files with --parquet");
    }

    @Override
    public InputFile newInputFile(final String location) {
        return org.apache.iceberg.Files.localInput(path(location).toFile());
    }

    @Override
    public OutputFile newOutputFile(final String location) {
        final Path p = path(location);
        try {
            Files.createDirectories(p.toAbsolutePath().getParent());
        } catch (final IOException e) {
            throw new StorageException("iceberg file " + location + " cannot be created: " + e.getMessage(), e);
        }
        return org.apache.iceberg.Files.localOutput(p.toFile());
    }

    @Override
    public void deleteFile(final String location) {
        try {
            Files.deleteIfExists(path(location));
        } catch (final IOException e) {
            throw new StorageException("iceberg file " + location + " cannot be deleted: " + e.getMessage(), e);
        }
    }
}
