package io.sluice.s3;

import io.sluice.format.StorageException;
import io.sluice.storage.StoreContents;
import io.sluice.storage.TableManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The small files of a store on object storage copied into a local directory: each table's manifest and, of the
 * version it names, every file but the block files (the zonemap index, the statistics). The copy is a store directory
 * whose tables plan and open as a local store's; their blocks are fetched when read.
 */
final class StoreMirror {
    /** Where block files' names start, the files a mirror leaves on object storage. */
    static final String BLOCK_PREFIX = "block-";

    private StoreMirror() {
    }

    /**
     * Copies the manifests and metadata of every table of the store into {@code dir}.
     *
     * @return each table's name and the version its manifest names
     */
    static Map<String, TableManifest> copy(final S3Objects objects, final Path dir) {
        final Map<String, TableManifest> tables = new TreeMap<>();
        for (final String entry : objects.listDirectories("")) {
            final String name = entry.substring(0, entry.length() - 1);
            if (!StoreContents.isTableName(name)) {
                continue;
            }
            final TableManifest manifest = copyTable(objects, dir, name);
            if (manifest != null) {
                tables.put(name, manifest);
            }
        }
        return tables;
    }

    /**
     * Copies the manifest and metadata of table {@code name} into {@code dir}.
     *
     * @return the manifest, or null when the store has no complete table of that name
     */
    static TableManifest copyTable(final S3Objects objects, final Path dir, final String name) {
        final byte[] manifest = objects.get(name + "/" + TableManifest.FILE);
        if (manifest == null) {
            return null;
        }
        final Path tableDir = dir.resolve(name);
        try {
            Files.createDirectories(tableDir);
            // The manifest last, as a writer does: a reader of the directory sees the table only once it is whole.
            final Path staged = Files.createTempDirectory(dir, "." + name + "-");
            try {
                Files.write(staged.resolve(TableManifest.FILE), manifest);
                final TableManifest read = TableManifest.read(staged);
                final Path dataDir = read.dataDir(tableDir);
                Files.createDirectories(dataDir);
                final String versionPrefix = name + "/" + tableDir.relativize(dataDir).toString().replace('\\', '/');
                final String listed = read.version() == 0 ? name + "/" : versionPrefix + "/";
                for (final String file : objects.listFiles(listed, true)) {
                    final String fileName = file.substring(file.lastIndexOf('/') + 1);
                    if (fileName.startsWith(BLOCK_PREFIX) || fileName.equals(TableManifest.FILE) || fileName.isEmpty()) {
                        continue;
                    }
                    final byte[] bytes = objects.get(file);
                    if (bytes != null) {
                        Files.write(dataDir.resolve(fileName), bytes);
                    }
                }
                Files.move(staged.resolve(TableManifest.FILE), tableDir.resolve(TableManifest.FILE),
                        StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                return read;
            } finally {
                deleteTree(staged);
            }
        } catch (final IOException e) {
            throw new StorageException("cannot copy the metadata of table '" + name + "' of store "
                    + objects.location() + " into " + dir + ": " + e, e);
        }
    }

    /** Deletes a directory tree (nothing when it is gone). */
    static void deleteTree(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (final IOException e) {
            throw new StorageException("cannot delete " + dir + ": " + e, e);
        }
    }
}
