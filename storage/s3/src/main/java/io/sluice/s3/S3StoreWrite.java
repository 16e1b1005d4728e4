package io.sluice.s3;

import io.sluice.format.StorageException;
import io.sluice.storage.StoreContents;
import io.sluice.storage.TableManifest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * One write to a store on object storage: the store's lock taken ({@link S3StoreLock}), the leftovers of unfinished
 * uploads removed, the store's manifests and metadata mirrored into a local directory that the writer (gen, import)
 * writes into as into a local store; {@link #publish} then uploads every table written there, each table's block
 * files and metadata first and its manifest last, so a reader sees a table's old version or its new one, never a mix.
 */
public final class S3StoreWrite implements AutoCloseable {
    private final S3Objects objects;
    private final S3StoreLock lock;
    private final Path dir;
    private final Map<String, TableManifest> before;

    private S3StoreWrite(final S3Objects objects, final S3StoreLock lock, final Path dir,
                         final Map<String, TableManifest> before) {
        this.objects = objects;
        this.lock = lock;
        this.dir = dir;
        this.before = before;
    }

    /**
     * Takes the store's lock and mirrors its tables' metadata into a new temporary directory.
     *
     * @param command what the writer does, recorded in the lock
     * @throws StorageException when another writer holds the lock, or the store cannot be reached
     */
    public static S3StoreWrite begin(final S3Objects objects, final String command) {
        final S3StoreLock lock = S3StoreLock.acquire(objects, command);
        Path dir = null;
        try {
            removeLeftovers(objects);
            dir = Files.createTempDirectory("sluice-s3-write-");
            return new S3StoreWrite(objects, lock, dir, StoreMirror.copy(objects, dir));
        } catch (final IOException e) {
            lock.close();
            throw new StorageException("cannot create a temporary directory to write store " + objects.location()
                    + " from: " + e, e);
        } catch (final RuntimeException e) {
            if (dir != null) {
                StoreMirror.deleteTree(dir);
            }
            lock.close();
            throw e;
        }
    }

    /** The local directory to write the tables into (a store directory). */
    public Path dir() {
        return dir;
    }

    /**
     * Uploads every table whose manifest in {@link #dir()} differs from the store's, then deletes the version each
     * replaced.
     *
     * @return the names of the tables uploaded
     */
    public List<String> publish() {
        final List<String> uploaded = new ArrayList<>();
        for (final String name : StoreContents.of(dir).tables()) {
            final Path tableDir = dir.resolve(name);
            final TableManifest written = TableManifest.read(tableDir);
            final TableManifest old = before.get(name);
            if (old != null && old.version() == written.version()) {
                continue;
            }
            final int version = Math.max(written.version(), old == null ? 1 : old.version() + 1);
            final String versionPrefix = name + "/" + TableManifest.versionDirName(version) + "/";
            final List<Path> files = list(written.dataDir(tableDir));
            // Block files first, then the zonemap index and statistics, the manifest last.
            for (final Path f : files) {
                if (f.getFileName().toString().startsWith(StoreMirror.BLOCK_PREFIX)) {
                    objects.put(versionPrefix + f.getFileName(), f);
                }
            }
            for (final Path f : files) {
                if (!f.getFileName().toString().startsWith(StoreMirror.BLOCK_PREFIX)) {
                    objects.put(versionPrefix + f.getFileName(), f);
                }
            }
            final SortedMap<String, String> attributes = new TreeMap<>(written.attributes());
            attributes.put(S3Store.UPLOAD_ATTRIBUTE, UUID.randomUUID().toString());
            final TableManifest published = new TableManifest(written.name(), written.schema(), written.rowCount(),
                    written.blockCount(), written.bytes(), written.sortKey(), version, attributes);
            final Path staging = dir.resolve("." + name + ".manifest");
            try {
                Files.createDirectories(staging);
                published.write(staging);
                objects.put(name + "/" + TableManifest.FILE, staging.resolve(TableManifest.FILE));
            } catch (final IOException e) {
                throw new StorageException("cannot stage the manifest of table '" + name + "' in " + staging + ": " + e, e);
            } finally {
                StoreMirror.deleteTree(staging);
            }
            if (old != null && old.version() != version) {
                objects.deleteTree(name + "/" + TableManifest.versionDirName(old.version()));
            }
            uploaded.add(name);
        }
        return uploaded;
    }

    /**
     * Deletes what uploads that did not finish left: version prefixes a table's manifest does not name, and tables
     * whose first upload stopped before its manifest (only version prefixes, no manifest).
     */
    static void removeLeftovers(final S3Objects objects) {
        for (final String entry : objects.listDirectories("")) {
            final String name = entry.substring(0, entry.length() - 1);
            if (!StoreContents.isTableName(name)) {
                continue;
            }
            final byte[] manifest = objects.get(name + "/" + TableManifest.FILE);
            final String named = manifest == null ? null : namedVersion(manifest);
            if (manifest != null && named == null) {
                continue; // a manifest without a version (format 1): its files lie beside it
            }
            final List<String> children = objects.listDirectories(entry);
            final boolean onlyVersions = objects.listFiles(entry, true).isEmpty() || manifest != null;
            for (final String child : children) {
                final String version = child.substring(entry.length(), child.length() - 1);
                if (version.matches("v[1-9][0-9]*") && onlyVersions && !version.equals(named)) {
                    objects.deleteTree(child.substring(0, child.length() - 1));
                }
            }
        }
    }

    private static String namedVersion(final byte[] manifest) {
        final Properties p = new Properties();
        try {
            p.load(new ByteArrayInputStream(manifest));
        } catch (final IOException | IllegalArgumentException e) {
            return null;
        }
        final String version = p.getProperty("version");
        return version == null ? null : TableManifest.versionDirName(Integer.parseInt(version.trim()));
    }

    private static List<Path> list(final Path dataDir) {
        try (Stream<Path> files = Files.list(dataDir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        } catch (final IOException e) {
            throw new StorageException("cannot list " + dataDir + ": " + e, e);
        }
    }

    /** Releases the lock and deletes the local directory. */
    @Override
    public void close() {
        try {
            StoreMirror.deleteTree(dir);
        } finally {
            lock.close();
        }
    }
}
