package io.sluice.s3;

import io.sluice.format.StorageException;
import io.sluice.storage.BlockFile;
import io.sluice.storage.BlockFileCache;
import io.sluice.storage.BlockFileSource;
import io.sluice.storage.StatisticsFile;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableManifest;
import io.sluice.storage.TableWriter;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A store on object storage opened for reading: its manifests and zonemap indexes mirrored into a local directory
 * when opened (so planning reads no object), its block files fetched into a {@link BlockCache} when a scan first
 * needs them and memory-mapped from there like a local store's. A table written after the store was opened is
 * copied in when a reader first asks for it by name; a table already seen keeps being read at the version seen (as
 * a local store's open table is), until the store is opened again.
 */
public final class S3Store implements AutoCloseable {
    /** The manifest attribute naming one upload of a table, so cached blocks of an earlier store at the same place never serve it. */
    public static final String UPLOAD_ATTRIBUTE = "upload";
    private static final Pattern UPLOAD_ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

    private final S3Objects objects;
    private final BlockCache cache;
    private final Path mirror;
    private final Store store;
    private final String cachePrefix;
    private final Thread cleanup;

    private S3Store(final S3Objects objects, final BlockCache cache, final Path mirror) {
        this.objects = objects;
        this.cache = cache;
        this.mirror = mirror;
        this.cachePrefix = URLEncoder.encode(objects.location().bucket() + "/" + objects.location().prefix(),
                StandardCharsets.UTF_8);
        this.store = Store.open(mirror, BlockFileCache.shared(), new BlockFileSource() {
            @Override
            public BlockFile open(final Table table, final int block, final boolean[] verified) {
                return openBlock(table, block, verified);
            }

            @Override
            public boolean copyTable(final Path dir, final String name) {
                return copyNewTable(name);
            }
        });
        this.cleanup = new Thread(() -> StoreMirror.deleteTree(mirror), "sluice-s3-mirror-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /**
     * Opens the store at {@code objects}' location, its blocks cached in {@code cache}.
     *
     * @throws StorageException when the store cannot be read (naming the bucket and key and what to check), or holds
     *                          no table
     */
    public static S3Store open(final S3Objects objects, final BlockCache cache) {
        final Path mirror;
        try {
            mirror = Files.createTempDirectory("sluice-s3-");
        } catch (final IOException e) {
            throw new StorageException("cannot create a temporary directory for the manifests of store "
                    + objects.location() + ": " + e, e);
        }
        try {
            if (StoreMirror.copy(objects, mirror).isEmpty()) {
                throw new StorageException("store " + objects.location() + " has no table: write one with sluice gen"
                        + " --sf 0.01 --out " + objects.location() + " (TPC-H tables) or sluice import");
            }
            return new S3Store(objects, cache, mirror);
        } catch (final RuntimeException e) {
            StoreMirror.deleteTree(mirror);
            throw e;
        }
    }

    /** The store's tables, read like a local store's. */
    public Store store() {
        return store;
    }

    /** The objects of the store (and their GET counters). */
    public S3Objects objects() {
        return objects;
    }

    /** The block cache the store's scans read through. */
    public BlockCache cache() {
        return cache;
    }

    /** Copies the metadata of a table written since the store was opened, when there is one of that name now. */
    private synchronized boolean copyNewTable(final String name) {
        if (Files.isRegularFile(mirror.resolve(name).resolve(TableManifest.FILE))) {
            return true;
        }
        return StoreMirror.copyTable(objects, mirror, name) != null;
    }

    /** The path inside the store of one file of {@code table}'s version directory. */
    private static String objectOf(final Table table, final String fileName) {
        final TableManifest manifest = table.manifest();
        final String version = manifest.version() == 0 ? "" : TableManifest.versionDirName(manifest.version()) + "/";
        return table.dir().getFileName() + "/" + version + fileName;
    }

    /** Where the object of one block of {@code table} is, as messages name it. */
    public String blockUri(final Table table, final int block) {
        return objects.location().uri(objectOf(table, table.blockPath(block).getFileName().toString()));
    }

    /** The blocks of {@code table} whose objects the store lacks (one listing of its version directory). */
    public List<Integer> missingBlocks(final Table table) {
        final String prefix = objectOf(table, "");
        final Set<String> present = new HashSet<>();
        for (final String file : objects.listFiles(prefix, true)) {
            present.add(file.substring(file.lastIndexOf('/') + 1));
        }
        final List<Integer> missing = new ArrayList<>();
        for (int b = 0; b < table.blockCount(); b++) {
            if (!present.contains(table.blockPath(b).getFileName().toString())) {
                missing.add(b);
            }
        }
        return missing;
    }

    /**
     * Stores statistics computed after {@code table} was written (replacing any it had): in the local copy, then
     * as the object beside its zonemap index. The caller holds the store's lock ({@link S3StoreLock}).
     */
    public void writeStatistics(final Table table, final byte[] payload) {
        table.writeStatistics(payload);
        objects.put(objectOf(table, StatisticsFile.FILE), table.dataDir().resolve(StatisticsFile.FILE));
    }

    /**
     * Which blocks of each table the cache holds, of the version of the table this store reads (the version its
     * local copy of the manifest names), for the tables copied in so far.
     *
     * @return per table name, the cached blocks' numbers
     */
    public Map<String, BitSet> cachedBlocks() {
        final Map<String, BitSet> cached = new TreeMap<>();
        for (final String name : store.tableNames()) {
            final TableManifest manifest;
            try {
                manifest = TableManifest.read(mirror.resolve(name));
            } catch (final StorageException e) {
                // Being copied in right now: reported by the next call.
                continue;
            }
            final String prefix = cacheDirOf(name, manifest);
            final BitSet blocks = new BitSet();
            for (int b = 0; b < manifest.blockCount(); b++) {
                if (cache.contains(prefix + TableWriter.blockFileName(b))) {
                    blocks.set(b);
                }
            }
            if (!blocks.isEmpty()) {
                cached.put(name, blocks);
            }
        }
        return cached;
    }

    /** The directory of the cache holding the block files of one upload of a table, ending with '/'. */
    private String cacheDirOf(final String tableName, final TableManifest manifest) {
        final String upload = manifest.attributes().get(UPLOAD_ATTRIBUTE);
        // The id names a directory of the cache: anything but a plain id (a manifest not written by Sluice) is ignored.
        return cachePrefix + "/" + tableName + "/"
                + (upload != null && UPLOAD_ID.matcher(upload).matches() ? upload
                        : "v" + manifest.version() + "-" + manifest.bytes()) + "/";
    }

    private BlockFile openBlock(final Table table, final int block, final boolean[] verified) {
        final String tableName = table.dir().getFileName().toString();
        final String fileName = table.blockPath(block).getFileName().toString();
        final String object = objectOf(table, fileName);
        final String key = cacheDirOf(tableName, table.manifest()) + fileName;
        return cache.open(key, objects.location().uri(object), file -> objects.download(object, file), block,
                table.schema(), verified);
    }

    /** Deletes the local mirror of the manifests; the block cache and the objects stay open (their owners close them). */
    @Override
    public void close() {
        StoreMirror.deleteTree(mirror);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (final IllegalStateException e) {
            // Shutting down: the hook runs anyway.
        }
    }
}
