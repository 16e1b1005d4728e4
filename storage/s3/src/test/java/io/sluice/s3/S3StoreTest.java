package io.sluice.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.StringVector;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.StoreLock;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class S3StoreTest {
    private static final Schema SCHEMA = Schema.parse("id:int64,name:string");
    private static final int ROWS = 20_000;
    private static final long CACHE = 64L << 20;

    @TempDir
    Path tmp;

    private S3TestServer server;
    private S3Location location;

    @BeforeEach
    void start() throws Exception {
        server = S3TestServer.start(tmp.resolve("server"));
        server.createBucket("data");
        location = S3Location.parse("s3://data/stores/small");
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private S3Objects objects() {
        return new S3Objects(location, server.settings());
    }

    private void writeTable(final String name, final int rows, final long offset) {
        try (S3Objects objects = objects(); S3StoreWrite write = S3StoreWrite.begin(objects, "test write")) {
            final Store local = Store.open(write.dir());
            try (var lock = local.lock("test write");
                 TableWriter writer = local.write(io.sluice.storage.TableSpec.of(name, SCHEMA)
                         .withPresortedKey("id").replacing(true))) {
                for (int i = 0; i < rows; i++) {
                    writer.column(0).appendLong(i + offset);
                    writer.column(1).appendString("row " + (i + offset));
                    writer.endRow();
                }
                writer.finish().close();
            }
            assertThat(write.publish()).containsExactly(name);
        }
    }

    private static List<String> readAll(final Table table) {
        final List<String> rows = new ArrayList<>();
        for (int b = 0; b < table.blockCount(); b++) {
            rows.addAll(rowsOf(table.readBlock(b)));
        }
        return rows;
    }

    private static List<String> rowsOf(final Block block) {
        final List<String> rows = new ArrayList<>();
        final LongVector id = (LongVector) block.column(0);
        final StringVector name = (StringVector) block.column(1);
        for (int r = 0; r < block.rowCount(); r++) {
            rows.add(id.get(r) + ":" + name.getString(r));
        }
        return rows;
    }

    /** Files of the cache that are not finished entries (a fetch cut off would leave one). */
    private static List<Path> unfinishedEntries(final Path cacheDir) throws Exception {
        try (Stream<Path> files = Files.walk(cacheDir.resolve("blocks"))) {
            return files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".sbk")).toList();
        }
    }

    private static List<String> expected(final int rows, final long offset) {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            out.add((i + offset) + ":row " + (i + offset));
        }
        return out;
    }

    /** Reads every row of table t through a fresh store, cache and client, as a restarted process does. */
    private Reading read(final Path cacheDir, final long capacity) {
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(cacheDir, capacity);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            final long metadataGets = objects.gets();
            final List<String> rows = readAll(catalog.table("t"));
            return new Reading(rows, objects.gets() - metadataGets, cache.hits(), cache.fetches(), cache.damaged(),
                    cache.bytes());
        }
    }

    private record Reading(List<String> rows, long blockGets, long hits, long fetches, long damaged, long cachedBytes) {
    }

    @Test
    void aTableUploadedToObjectStorageReadsTheRowsWritten() {
        writeTable("t", ROWS, 0);
        final Reading first = read(tmp.resolve("cache"), CACHE);
        assertThat(first.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(first.fetches()).isEqualTo(3);
        assertThat(first.blockGets()).isEqualTo(3);
    }

    @Test
    void aRestartedReaderIsServedFromItsCacheWithoutGets() {
        writeTable("t", ROWS, 0);
        final Path cacheDir = tmp.resolve("cache");
        read(cacheDir, CACHE);
        final Reading second = read(cacheDir, CACHE);
        assertThat(second.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(second.blockGets()).isZero();
        assertThat(second.fetches()).isZero();
        assertThat(second.hits()).isEqualTo(3);
    }

    @Test
    void aDamagedCacheEntryIsDroppedAndFetchedAgain() throws Exception {
        writeTable("t", ROWS, 0);
        final Path cacheDir = tmp.resolve("cache");
        read(cacheDir, CACHE);
        final Path entry;
        try (Stream<Path> files = Files.walk(cacheDir)) {
            entry = files.filter(p -> p.getFileName().toString().equals("block-000001.sbk")).findFirst().orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(entry, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {(byte) 0x5a, (byte) 0xa5}), Files.size(entry) - 10);
        }
        final Reading again = read(cacheDir, CACHE);
        assertThat(again.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(again.damaged()).isEqualTo(1);
        assertThat(again.fetches()).isEqualTo(1);
        assertThat(again.hits()).isEqualTo(2);
    }

    @Test
    void aServerStoppedMidReadFailsTheReadNamingObjectAndServerAndOnceRestartedTheReadGoesOnUncorrupted()
            throws Exception {
        writeTable("t", ROWS, 0);
        final Path cacheDir = tmp.resolve("cache");
        final List<String> rows = new ArrayList<>();
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(cacheDir, CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            final Table t = catalog.table("t");
            assertThat(t.blockCount()).isEqualTo(3);
            rows.addAll(rowsOf(t.readBlock(0)));
            assertThat(server.blockGets()).as("block GETs the server saw before it stops").isEqualTo(1);
            server.stop();
            assertThatThrownBy(() -> t.readBlock(1)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("cannot read s3://data/stores/small/t/v1/block-000001.sbk at "
                            + server.endpoint())
                    .hasMessageContaining("after " + S3Settings.ATTEMPTS + " attempts")
                    .hasMessageContaining("check that the server runs and AWS_ENDPOINT_URL names it");
            assertThat(unfinishedEntries(cacheDir)).isEmpty();
            server.startAgain();
            rows.addAll(rowsOf(t.readBlock(1)));
            rows.addAll(rowsOf(t.readBlock(2)));
            assertThat(rows).containsExactlyElementsOf(expected(ROWS, 0));
            assertThat(cache.fetches()).isEqualTo(3);
            assertThat(cache.damaged()).isZero();
        }
        final Reading restarted = read(cacheDir, CACHE);
        assertThat(restarted.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(restarted.blockGets()).isZero();
        assertThat(restarted.damaged()).isZero();
        assertThat(unfinishedEntries(cacheDir)).isEmpty();
    }

    @Test
    void getsTheServerFailsFewerTimesThanTheAttemptsAreRetriedAndTheReadSucceeds() {
        writeTable("t", ROWS, 0);
        server.failNextBlockGets(S3Settings.ATTEMPTS - 1);
        final Reading reading = read(tmp.resolve("cache"), CACHE);
        assertThat(reading.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(server.failedBlockGets()).isEqualTo(S3Settings.ATTEMPTS - 1);
        assertThat(server.blockGets()).isEqualTo(3 + S3Settings.ATTEMPTS - 1);
        assertThat(reading.blockGets()).as("GETs counted once however often retried").isEqualTo(3);
    }

    @Test
    void aServerFailingEveryAttemptIsAnErrorNamingObjectAndServerAndTheNextReadSucceeds() throws Exception {
        writeTable("t", ROWS, 0);
        final Path cacheDir = tmp.resolve("cache");
        server.failNextBlockGets(S3Settings.ATTEMPTS);
        assertThatThrownBy(() -> read(cacheDir, CACHE)).isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot read s3://data/stores/small/t/v1/block-000000.sbk at "
                        + server.endpoint())
                .hasMessageContaining("HTTP 500 InternalError after " + S3Settings.ATTEMPTS + " attempts")
                .hasMessageContaining("run the query again");
        assertThat(unfinishedEntries(cacheDir)).isEmpty();
        final Reading again = read(cacheDir, CACHE);
        assertThat(again.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(again.damaged()).isZero();
    }

    @Test
    void aTableWrittenAfterTheStoreWasOpenedIsSeenWhenFirstAskedForByName() {
        writeTable("t", ROWS, 0);
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            assertThat(s3.store().tableNames()).containsExactly("t");
            writeTable("u", 100, 5_000);
            assertThat(readAll(catalog.table("u"))).containsExactlyElementsOf(expected(100, 5_000));
            assertThat(readAll(catalog.table("t"))).containsExactlyElementsOf(expected(ROWS, 0));
            assertThat(s3.store().tableNames()).containsExactly("t", "u");
            assertThatThrownBy(() -> catalog.table("nope")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("has no table 'nope'");
        }
    }

    @Test
    void blocksWhoseObjectsAreGoneAreListedByNameAndStatisticsWrittenLaterReachTheStore() {
        writeTable("t", ROWS, 0);
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            final Table t = catalog.table("t");
            assertThat(s3.missingBlocks(t)).isEmpty();
            objects.delete("t/v1/block-000002.sbk");
            assertThat(s3.missingBlocks(t)).containsExactly(2);
            assertThat(s3.blockUri(t, 2)).isEqualTo("s3://data/stores/small/t/v1/block-000002.sbk");
            s3.writeStatistics(t, new byte[] {1, 2, 3});
        }
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            assertThat(catalog.table("t").statistics()).as("statistics as a later reader finds them")
                    .containsExactly(1, 2, 3);
        }
    }

    @Test
    void theCacheKeepsAtMostItsSizeDroppingTheLeastRecentlyUsed() {
        writeTable("t", ROWS, 0);
        final Path cacheDir = tmp.resolve("cache");
        final Reading whole = read(cacheDir, CACHE);
        final long oneBlock = whole.cachedBytes() / 2;
        final Reading small = read(tmp.resolve("small"), oneBlock);
        assertThat(small.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(small.cachedBytes()).isLessThanOrEqualTo(oneBlock);
        final Reading shrunk = read(cacheDir, oneBlock);
        assertThat(shrunk.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(shrunk.cachedBytes()).isLessThanOrEqualTo(oneBlock);
    }

    @Test
    void theCachedBlocksReportedAreThoseReadOfTheVersionReadAlsoAfterARestart() {
        writeTable("t", ROWS, 0);
        writeTable("u", 100, 5_000);
        final Path cacheDir = tmp.resolve("cache");
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(cacheDir, CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            assertThat(s3.cachedBlocks()).isEmpty();
            final Table t = catalog.table("t");
            t.readBlock(0);
            t.readBlock(2);
            assertThat(s3.cachedBlocks()).containsOnlyKeys("t");
            assertThat(s3.cachedBlocks().get("t").stream().toArray()).containsExactly(0, 2);
        }
        // Another upload of t: the entries of the first are not its blocks.
        writeTable("t", ROWS, 1_000_000);
        try (S3Objects objects = objects(); BlockCache cache = BlockCache.open(cacheDir, CACHE);
             S3Store s3 = S3Store.open(objects, cache); StoreCatalog catalog = new StoreCatalog(s3.store())) {
            assertThat(s3.cachedBlocks()).isEmpty();
            catalog.table("t").readBlock(1);
            catalog.table("u").readBlock(0);
            assertThat(s3.cachedBlocks().get("t").stream().toArray()).containsExactly(1);
            assertThat(s3.cachedBlocks().get("u").stream().toArray()).containsExactly(0);
        }
    }

    @Test
    void aReplacedTableIsReadAtItsNewVersionAndTheOldVersionIsDeleted() {
        writeTable("t", ROWS, 0);
        read(tmp.resolve("cache"), CACHE);
        writeTable("t", 100, 1_000_000);
        final Reading replaced = read(tmp.resolve("cache"), CACHE);
        assertThat(replaced.rows()).containsExactlyElementsOf(expected(100, 1_000_000));
        try (S3Objects objects = objects()) {
            assertThat(objects.listDirectories("t/")).containsExactly("t/v2/");
        }
    }

    @Test
    void anUploadIdThatIsNotAPlainIdNeverPlacesCacheEntriesOutsideTheCache() throws Exception {
        writeTable("t", ROWS, 0);
        try (S3Objects objects = objects()) {
            final String manifest = new String(objects.get("t/manifest.properties"), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(manifest).contains("attribute.upload=");
            objects.put("t/manifest.properties", manifest.replaceAll("attribute\\.upload=.*",
                    "attribute.upload=../../../../escaped").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        final Reading reading = read(tmp.resolve("cache"), CACHE);
        assertThat(reading.rows()).containsExactlyElementsOf(expected(ROWS, 0));
        assertThat(tmp.resolve("escaped")).doesNotExist();
        try (Stream<Path> files = Files.walk(tmp.resolve("cache"))) {
            assertThat(files.filter(p -> p.toString().endsWith(".sbk")).count()).isEqualTo(3);
        }
    }

    @Test
    void aSecondWriterIsRefusedWhileTheFirstHoldsTheLock() {
        try (S3Objects objects = objects(); S3StoreWrite first = S3StoreWrite.begin(objects, "sluice gen first")) {
            assertThatThrownBy(() -> S3StoreWrite.begin(objects, "sluice gen second"))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("s3://data/stores/small is locked by another writer")
                    .hasMessageContaining("sluice gen first");
        }
        try (S3Objects objects = objects(); S3StoreWrite again = S3StoreWrite.begin(objects, "sluice gen third")) {
            assertThat(again.dir()).isDirectory();
        }
    }

    @Test
    void aLockPutWhoseAnswerWasLostIsOursWhenItsRetryFindsOurRecord() {
        try (S3Objects objects = objects()) {
            // The first put went through, its answer did not arrive; the retry finds the object there. A plain put
            // stands for that first put: a conditional one can itself lose its answer on a loaded machine, the
            // client's retry then finding the object and reporting it taken.
            objects.put(StoreLock.FILE, S3StoreLock.record("our-token", "sluice gen"));
            try (S3StoreLock lock = S3StoreLock.acquire(objects, "sluice gen", "our-token")) {
                assertThat(lock.token()).isEqualTo("our-token");
                assertThatThrownBy(() -> S3StoreLock.acquire(objects, "sluice import", "their-token"))
                        .isInstanceOf(StorageException.class).hasMessageContaining("is locked by another writer");
            }
            assertThat(objects.get(StoreLock.FILE)).as("released").isNull();
        }
    }

    @Test
    void anUnfinishedUploadIsRemovedByTheNextWriter() {
        writeTable("t", ROWS, 0);
        try (S3Objects objects = objects()) {
            objects.put("t/v7/block-000000.sbk", new byte[] {1, 2, 3});
            objects.put("u/v1/block-000000.sbk", new byte[] {1, 2, 3});
            S3StoreWrite.begin(objects, "cleanup").close();
            assertThat(objects.listDirectories("t/")).containsExactly("t/v1/");
            assertThat(objects.listDirectories("")).containsExactly("t/");
        }
    }

    @Test
    void aMissingBucketIsNamedWithTheFix() {
        final S3Location nowhere = S3Location.parse("s3://no-such-bucket/x");
        try (S3Objects objects = new S3Objects(nowhere, server.settings());
             BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE)) {
            assertThatThrownBy(() -> S3Store.open(objects, cache))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("bucket 'no-such-bucket' does not exist")
                    .hasMessageContaining(server.endpoint().toString())
                    .hasMessageContaining("AWS_ENDPOINT_URL");
        }
    }

    @Test
    void wrongCredentialsAreNamedWithTheFix() {
        final S3Settings wrong = new S3Settings(server.endpoint(), S3Settings.DEFAULT_REGION,
                S3TestServer.ACCESS_KEY, "not-the-secret");
        try (S3Objects objects = new S3Objects(location, wrong);
             BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE)) {
            assertThatThrownBy(() -> S3Store.open(objects, cache))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("s3://data/stores/small")
                    .hasMessageContaining("access denied")
                    .hasMessageContaining("AWS_SECRET_ACCESS_KEY");
        }
    }

    @Test
    void anUnreachableEndpointIsNamedWithTheFix() {
        final S3Settings nowhere = new S3Settings(URI.create("http://127.0.0.1:1"), S3Settings.DEFAULT_REGION,
                S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY);
        try (S3Objects objects = new S3Objects(location, nowhere);
             BlockCache cache = BlockCache.open(tmp.resolve("cache"), CACHE)) {
            assertThatThrownBy(() -> S3Store.open(objects, cache))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("http://127.0.0.1:1")
                    .hasMessageContaining("check that the server runs and AWS_ENDPOINT_URL names it");
        }
    }

    @Test
    void aCacheDirectoryServesOneProcessAtATime() {
        try (BlockCache first = BlockCache.open(tmp.resolve("cache"), CACHE)) {
            assertThatThrownBy(() -> BlockCache.open(tmp.resolve("cache"), CACHE))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("give each process (each CN) its own --cache-dir");
        }
    }
}
