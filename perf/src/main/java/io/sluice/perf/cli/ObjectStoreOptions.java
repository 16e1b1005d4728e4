package io.sluice.perf.cli;

import io.sluice.dispatch.control.StorageReads;
import io.sluice.format.StorageException;
import io.sluice.s3.BlockCache;
import io.sluice.s3.S3Location;
import io.sluice.s3.S3Objects;
import io.sluice.s3.S3Settings;
import io.sluice.s3.S3Store;
import io.sluice.storage.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Supplier;
import org.agrona.CloseHelper;
import picocli.CommandLine.Option;

/**
 * {@code --cache-dir} and {@code --cache-size}: where a process reading a store on object storage
 * ({@code --store s3://BUCKET/PREFIX}) keeps the block files it fetched, and how many bytes of them. Without
 * {@code --cache-dir}, a temporary directory deleted when the process ends.
 */
final class ObjectStoreOptions {
    /** The default of {@code --cache-size}. */
    static final String DEFAULT_SIZE = "4g";

    @Option(names = "--cache-dir", paramLabel = "DIR",
            description = "With --store s3://BUCKET/PREFIX: the directory this process caches block files in (kept"
                + " across restarts, one process each; default: a temporary directory removed at exit); see"
                + " docs/object-storage.md.")
    Path cacheDir;

    @Option(names = "--cache-size", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            defaultValue = DEFAULT_SIZE, description = "With --store s3://...: the most bytes of block files the cache"
                + " keeps, the least recently used dropped first (default: ${DEFAULT-VALUE}).")
    long cacheSize = ByteSizeConverter.parse(DEFAULT_SIZE);

    /** Whether {@code store} names a store on object storage rather than a directory. */
    static boolean isObjectStorage(final Path store) {
        return store != null && S3Location.isS3(store.toString());
    }

    /** {@code store} as the user wrote it: {@code s3://BUCKET/PREFIX} for object storage, else the path. */
    static String describe(final Path store) {
        return isObjectStorage(store) ? S3Location.parse(store.toString()).toString() : String.valueOf(store);
    }

    /**
     * Opens the store at {@code store}: a directory, or {@code s3://BUCKET/PREFIX} through this process's block
     * cache; the returned handle closes what opening it started.
     */
    Opened open(final Path store) {
        if (!isObjectStorage(store)) {
            return new Opened(Store.open(store), null, null, null);
        }
        final S3Location location = S3Location.parse(store.toString());
        final S3Objects objects = new S3Objects(location, S3Settings.fromEnvironment());
        BlockCache cache = null;
        try {
            cache = BlockCache.open(cacheDir != null ? cacheDir : temporaryCacheDir(), cacheSize);
            final S3Store s3 = S3Store.open(objects, cache);
            final BlockCache opened = cache;
            return new Opened(s3.store(), () -> CloseHelper.closeAll(s3, opened, objects),
                    () -> new StorageReads(objects.gets(), objects.bytesRead(), opened.hits(), opened.hitBytes()), s3);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(cache, objects);
            throw e;
        }
    }

    private static Path temporaryCacheDir() {
        try {
            final Path dir = Files.createTempDirectory("sluice-cache-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "sluice-cache-cleanup"));
            return dir;
        } catch (final IOException e) {
            throw new StorageException("cannot create a temporary block cache directory: " + e
                    + "; give one with --cache-dir DIR", e);
        }
    }

    private static void deleteTree(final Path dir) {
        try (var walk = Files.walk(dir)) {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (final IOException e) {
            // A temporary directory: the system cleans it eventually.
        }
    }

    /**
     * A store opened by {@link #open}, what closes the resources behind it, what this process read of it and the
     * store on object storage behind it (all null for a local store).
     */
    record Opened(Store store, AutoCloseable resources, Supplier<StorageReads> reads, S3Store s3)
            implements AutoCloseable {
        @Override
        public void close() {
            if (resources != null) {
                CloseHelper.close(resources);
            }
        }
    }
}
