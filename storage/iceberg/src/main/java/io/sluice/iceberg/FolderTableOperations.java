package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A table kept in a local folder without a catalog, in the layout of Iceberg's file-system tables
 * ({@code metadata/vN.metadata.json} and {@code metadata/version-hint.text}), without Hadoop: a commit writes version
 * N+1 next to the table and claims its name by a move that fails when another writer took it first.
 */
final class FolderTableOperations implements TableOperations {
    private final Path folder;
    private final FileIO io = new LocalFileIO();
    private TableMetadata current;
    private int version;

    FolderTableOperations(final Path folder) {
        this.folder = folder.toAbsolutePath();
        refresh();
    }

    @Override
    public TableMetadata current() {
        return current;
    }

    @Override
    public TableMetadata refresh() {
        if (!Files.isDirectory(folder.resolve("metadata"))) {
            current = null;
            version = 0;
            return null;
        }
        final Path file = TableMetadataFiles.latest(folder);
        current = TableMetadataParser.read(io, "file:" + file);
        version = (int) TableMetadataFiles.versionOf(file.getFileName().toString());
        return current;
    }

    @Override
    public void commit(final TableMetadata base, final TableMetadata metadata) {
        if (base != current) {
            throw new CommitFailedException("iceberg table folder %s changed since it was read: retry", folder);
        }
        final int next = version + 1;
        final Path dir = folder.resolve("metadata");
        final Path target = dir.resolve("v" + next + ".metadata.json");
        final Path temp = dir.resolve("." + UUID.randomUUID() + ".metadata.json.tmp");
        try {
            Files.createDirectories(dir);
            TableMetadataParser.write(metadata, io.newOutputFile("file:" + temp));
            // A link fails where the name exists (a rename would replace it): the version stays the first writer's.
            Files.createLink(target, temp);
            Files.writeString(dir.resolve("version-hint.text"), Integer.toString(next), StandardCharsets.UTF_8);
        } catch (final FileAlreadyExistsException e) {
            throw new CommitFailedException("iceberg table folder %s: version %d was written by another writer; retry",
                    folder, next);
        } catch (final IOException e) {
            throw new StorageException("iceberg table folder " + folder + ": metadata version " + next
                    + " cannot be written: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (final IOException e) {
                // The temporary file is hidden and named uniquely; leaving it costs nothing but space.
            }
        }
        refresh();
    }

    @Override
    public FileIO io() {
        return io;
    }

    @Override
    public String metadataFileLocation(final String fileName) {
        return "file:" + folder.resolve("metadata").resolve(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
        return LocationProviders.locationsFor(current.location(), current.properties());
    }
}
