package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.s3.BlockCache;
import io.sluice.s3.S3Location;
import io.sluice.s3.S3Objects;
import io.sluice.s3.S3Store;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.StoreCatalog;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.s3.S3TestServer;
import io.sluice.storage.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code sluice gen --out s3://...} against a real S3 server (S3Proxy) and {@code sluice sql --store s3://...}:
 * the 22 TPC-H queries give DuckDB's rows over the same generated rows; a restarted reader is served from its block
 * cache without a GET of a block (and with the block objects deleted, the cached blocks still answer); a missing bucket and wrong credentials are errors
 * naming the bucket and what to check; --stats-json counts the bytes read from object storage and from the cache.
 */
class ObjectStoreCommandTest {
    private static final String[] PROPERTIES = {"aws.endpointUrl", "aws.accessKeyId", "aws.secretAccessKey"};

    @TempDir
    static Path dir;

    private static S3TestServer server;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        server = S3TestServer.start(dir.resolve("server"));
        server.createBucket("tpch");
        System.setProperty("aws.endpointUrl", server.endpoint().toString());
        System.setProperty("aws.accessKeyId", S3TestServer.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", S3TestServer.SECRET_KEY);
        final Path local = dir.resolve("local");
        final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", local.toString());
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        duck = DuckDbLoader.openInMemory(2);
        final List<String> names = new ArrayList<>();
        for (final TpchTable t : TpchTable.values()) {
            names.add(t.tableName());
        }
        DuckDbLoader.load(Store.open(local), names, duck);
    }

    @AfterAll
    static void stop() throws Exception {
        for (final String p : PROPERTIES) {
            System.clearProperty(p);
        }
        if (duck != null) {
            duck.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static List<String> lines(final Cli.Result r) {
        return List.of(r.out().split("\r\n"));
    }

    @Test
    void tpchQueriesOverAStoreOnObjectStorageGiveDuckDbsRowsAndRunAgainFromTheCache() throws Exception {
        final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", "s3://tpch/sf0.01");
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        assertThat(gen.out()).contains("uploaded customer, lineitem, nation, orders, part, partsupp, region, supplier"
                + " to s3://tpch/sf0.01");
        final Path cache = dir.resolve("cache");
        // The 22 queries over the store on object storage, then again in a restarted reader: from the cache only.
        final long[] fetched = runAllQueries(cache);
        assertThat(fetched[0]).as("blocks fetched by the first reader").isPositive();
        assertThat(fetched[1]).as("blocks read from the cache by the first reader").isZero();
        final long[] again = runAllQueries(cache);
        assertThat(again[0]).as("blocks fetched by the restarted reader").isZero();
        assertThat(again[2]).as("GETs of block objects by the restarted reader").isZero();
        assertThat(again[1]).as("blocks the restarted reader read from its cache").isEqualTo(fetched[0]);

        final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
        final Cli.Result cluster = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--cache-dir", cache.toString(), "-f",
                q12.toString(), "--cn", "3", "--cores", "2", "--strategy", "colocate", "--format", "csv");
        assertThat(cluster.exitCode()).as(cluster.toString()).isZero();
        assertThat(lines(cluster)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));

        // --stats-json counts what the query read from object storage and from the cache.
        final Path q6 = Files.writeString(dir.resolve("q6.sql"), TpchSql.text(6));
        final Path warmStats = dir.resolve("warm.json");
        final Cli.Result warm = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--cache-dir", cache.toString(), "-f",
                q6.toString(), "--stats-json", warmStats.toString(), "--format", "csv");
        assertThat(warm.exitCode()).as(warm.toString()).isZero();
        final String warmJson = Files.readString(warmStats);
        assertThat(number(warmJson, "gets")).as(warmJson).isZero();
        assertThat(number(warmJson, "cache_hits")).as(warmJson).isPositive();
        assertThat(number(warmJson, "bytes_from_cache")).as(warmJson).isPositive();
        final Path coldStats = dir.resolve("cold.json");
        final Cli.Result cold = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--cache-dir",
                dir.resolve("cold-cache").toString(), "-f", q6.toString(), "--stats-json", coldStats.toString(),
                "--format", "csv");
        assertThat(cold.exitCode()).as(cold.toString()).isZero();
        final String coldJson = Files.readString(coldStats);
        assertThat(number(coldJson, "gets")).as(coldJson).isPositive();
        assertThat(number(coldJson, "bytes_read")).as(coldJson).isEqualTo(number(warmJson, "bytes_from_cache"));
        assertThat(number(coldJson, "cache_hits")).as(coldJson).isZero();

        // Without its block objects the store still answers from the cache, and only from there.
        try (S3Client client = server.settings().client()) {
            for (final S3Object o : client.listObjectsV2Paginator(b -> b.bucket("tpch").prefix("sf0.01/")).contents()) {
                if (o.key().endsWith(".sbk")) {
                    client.deleteObject(b -> b.bucket("tpch").key(o.key()));
                }
            }
        }
        final Path q1 = Files.writeString(dir.resolve("q1.sql"), TpchSql.text(1));
        final Cli.Result cached = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--cache-dir", cache.toString(), "-f",
                q1.toString(), "--cores", "2", "--format", "csv");
        assertThat(cached.exitCode()).as(cached.toString()).isZero();
        assertThat(lines(cached)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(1)));
        final Cli.Result uncached = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--cache-dir",
                dir.resolve("empty-cache").toString(), "-f", q1.toString(), "--cores", "2", "--format", "csv");
        assertThat(uncached.exitCode()).isEqualTo(1);
        assertThat(uncached.err()).contains("object s3://tpch/sf0.01/lineitem/v1/block-", "is missing");
        try (Stream<Path> files = Files.walk(cache)) {
            assertThat(files.filter(p -> p.toString().endsWith(".sbk")).count())
                    .as("lineitem's block files at least are cached").isGreaterThanOrEqualTo(8);
        }
    }

    private static long number(final String json, final String name) {
        final Matcher m = Pattern.compile("\"" + name + "\": (\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Runs the 22 queries in a new reader of the store; returns its cache's fetches and hits and its block GETs. */
    private static long[] runAllQueries(final Path cache) throws Exception {
        try (S3Objects objects = new S3Objects(S3Location.parse("s3://tpch/sf0.01"), server.settings());
             BlockCache blocks = BlockCache.open(cache, 1L << 30);
             S3Store s3 = S3Store.open(objects, blocks);
             StoreCatalog catalog = new StoreCatalog(s3.store())) {
            final long metadataGets = objects.gets();
            final SqlPlanner planner = new SqlPlanner(catalog, s3.store().tableNames());
            for (int q = 1; q <= TpchSql.COUNT; q++) {
                final String sql = TpchSql.text(q);
                try (QueryRunner runner = new QueryRunner(catalog, 2, StrategyConfig.defaults())) {
                    TpchOracle.assertSameAsDuckDb(duck, "q" + q, sql, runner.run(planner.plan(sql).plan()));
                }
            }
            return new long[] {blocks.fetches(), blocks.hits(), objects.gets() - metadataGets};
        }
    }

    @Test
    void importWritesATableToObjectStorageAndReplacesItOnlyWhenAsked() throws Exception {
        final Path first = Files.writeString(dir.resolve("first.csv"), "k,s\n1,a\n2,b\n3,c\n");
        final Path second = Files.writeString(dir.resolve("second.csv"), "k,s\n10,x\n");
        final String[] common = {"--store", "s3://tpch/imported", "--table", "items", "--schema", "k:int64,s:string"};
        final Cli.Result imported = Cli.run(concat(new String[] {"import", "--csv", first.toString()}, common));
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).contains("uploaded items to s3://tpch/imported");
        final Cli.Result sum = Cli.run("sql", "--store", "s3://tpch/imported", "--format", "csv",
                "select count(*) as n, sum(k) as total from items");
        assertThat(lines(sum)).containsExactly("n,total", "3,6");

        final Cli.Result refused = Cli.run(concat(new String[] {"import", "--csv", second.toString()}, common));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("already has a table items", "--replace");
        final Cli.Result replaced = Cli.run(concat(new String[] {"import", "--csv", second.toString(), "--replace"},
                common));
        assertThat(replaced.exitCode()).as(replaced.toString()).isZero();
        final Cli.Result after = Cli.run("sql", "--store", "s3://tpch/imported", "--format", "csv",
                "select count(*) as n, sum(k) as total from items");
        assertThat(lines(after)).containsExactly("n,total", "1,10");
        try (S3Client client = server.settings().client()) {
            final List<String> keys = new ArrayList<>();
            client.listObjectsV2Paginator(b -> b.bucket("tpch").prefix("imported/items/")).contents()
                    .forEach(o -> keys.add(o.key()));
            assertThat(keys).contains("imported/items/manifest.properties", "imported/items/v2/block-000000.sbk")
                    .noneMatch(k -> k.startsWith("imported/items/v1/"));
        }
    }

    private static String[] concat(final String[] a, final String[] b) {
        final String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void inspectAndAnalyzeReadAStoreOnObjectStorageAndNameMissingBlockObjects() throws Exception {
        final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", "s3://tpch/inspected", "--tables",
                "nation,region");
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        final Cli.Result inspect = Cli.run("inspect", "--store", "s3://tpch/inspected");
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("store s3://tpch/inspected", "nation", "region");
        final Cli.Result verified = Cli.run("inspect", "--store", "s3://tpch/inspected", "--table", "nation",
                "--verify", "--json", "--cache-dir", dir.resolve("inspect-cache").toString());
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        assertThat(verified.out()).contains("\"store\": \"s3://tpch/inspected\"", "\"nation\"");

        // A table written before gen wrote sketches: its statistics object is gone until analyze writes it again.
        try (S3Client client = server.settings().client()) {
            client.deleteObject(b -> b.bucket("tpch").key("inspected/nation/v1/statistics.bin"));
            final Cli.Result analyzed = Cli.run("analyze", "--store", "s3://tpch/inspected", "--tables", "nation");
            assertThat(analyzed.exitCode()).as(analyzed.toString()).isZero();
            assertThat(analyzed.out()).contains("analyzed 1 table of s3://tpch/inspected: 25 rows");
            assertThat(client.headObject(b -> b.bucket("tpch").key("inspected/nation/v1/statistics.bin"))
                    .contentLength()).as("statistics object written by analyze").isPositive();
            assertThat(client.listObjectsV2(b -> b.bucket("tpch").prefix("inspected/.lock")).contents())
                    .as("the store's lock, released").isEmpty();

            final Cli.Result boundaries = Cli.run("boundaries", "--store", "s3://tpch/inspected", "--table", "nation",
                    "--column", "n_nationkey", "--topology", "1x2");
            assertThat(boundaries.exitCode()).as(boundaries.toString()).isZero();
            assertThat(boundaries.out()).contains("n_nationkey");

            client.deleteObject(b -> b.bucket("tpch").key("inspected/region/v1/block-000000.sbk"));
        }
        final Cli.Result missing = Cli.run("inspect", "--store", "s3://tpch/inspected");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("block 0 of 1 of table 'region' is missing: no object"
                + " s3://tpch/inspected/region/v1/block-000000.sbk");
    }

    @Test
    void aMissingBucketIsAnErrorNamingItAndTheFix() {
        final Cli.Result r = Cli.run("sql", "--store", "s3://no-such-bucket/sf1", "select count(*) from lineitem");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("bucket 'no-such-bucket' does not exist", server.endpoint().toString(),
                "AWS_ENDPOINT_URL");
    }

    @Test
    void wrongCredentialsAreAnErrorNamingTheVariables() {
        System.setProperty("aws.secretAccessKey", "wrong");
        try {
            final Cli.Result r = Cli.run("gen", "--sf", "0.01", "--out", "s3://tpch/denied", "--tables", "region");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("s3://tpch/denied", "access denied", "AWS_ACCESS_KEY_ID",
                    "AWS_SECRET_ACCESS_KEY");
        } finally {
            System.setProperty("aws.secretAccessKey", S3TestServer.SECRET_KEY);
        }
    }
}
