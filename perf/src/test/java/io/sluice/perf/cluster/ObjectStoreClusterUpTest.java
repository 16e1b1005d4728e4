package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.s3.S3TestServer;
import io.sluice.storage.Store;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code sluice cluster up --store s3://...}: CN processes with nothing on local disk but an empty cache directory
 * each read a store on a real S3 server (S3Proxy); queries give DuckDB's rows; each CN caches the blocks it read in
 * its own directory under {@code --cache-dir}, and the same query runs again with the block objects gone. The CNs
 * report what they read: a cold run the GETs of exactly the blocks their caches now hold, a warm run none. A table
 * imported while the cluster runs is queried at once.
 */
class ObjectStoreClusterUpTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private static List<String> lines(final Cli.Result r) {
        return List.of(r.out().split("\r\n"));
    }

    /** The block files under each CN's cache directory. */
    private static List<Path> cachedBlocks(final Path caches) throws Exception {
        try (Stream<Path> files = Files.walk(caches)) {
            return files.filter(p -> p.toString().endsWith(".sbk")).toList();
        }
    }

    /**
     * The sizes the server lists for the objects of cached blocks: entry {@code .../TABLE/UPLOAD/block-N.sbk} is the
     * object {@code sf0.01/TABLE/VERSION/block-N.sbk} (one version per table in a store generated once).
     */
    private static long objectBytes(final S3TestServer server, final List<Path> cached) {
        final Map<String, Long> sizes = new HashMap<>();
        try (S3Client client = server.settings().client()) {
            for (final S3Object o : client.listObjectsV2Paginator(b -> b.bucket("tpch")).contents()) {
                final String[] parts = o.key().split("/");
                if (o.key().endsWith(".sbk")) {
                    assertThat(sizes.put(parts[1] + "/" + parts[parts.length - 1], o.size()))
                            .as("one version of %s", o.key()).isNull();
                }
            }
        }
        long sum = 0;
        for (final Path p : cached) {
            final String key = p.getParent().getParent().getFileName() + "/" + p.getFileName();
            assertThat(sizes).as("objects listed").containsKey(key);
            sum += sizes.get(key);
        }
        return sum;
    }

    /** A counter of the object_storage section of a --stats-json file. */
    private static long counter(final Path statsJson, final String name) throws Exception {
        final String json = Files.readString(statsJson);
        final int section = json.indexOf("\"object_storage\"");
        assertThat(section).as("object_storage in %s", json).isNotNegative();
        final Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(json);
        assertThat(m.find(section)).as("%s in %s", name, json).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void cnProcessesReadingAStoreOnObjectStorageAnswerAsDuckDbDoesAndFromTheirCaches() throws Exception {
        try (S3TestServer server = S3TestServer.start(dir.resolve("server"));
             Connection duck = DuckDbLoader.openInMemory(2)) {
            server.createBucket("tpch");
            final String[] properties = {"-Daws.endpointUrl=" + server.endpoint(),
                "-Daws.accessKeyId=" + S3TestServer.ACCESS_KEY, "-Daws.secretAccessKey=" + S3TestServer.SECRET_KEY};
            for (final String p : properties) {
                final String[] kv = p.substring(2).split("=", 2);
                System.setProperty(kv[0], kv[1]);
            }
            try {
                final Path local = dir.resolve("local");
                assertThat(Cli.run("gen", "--sf", "0.01", "--out", local.toString()).exitCode()).isZero();
                final List<String> names = new ArrayList<>();
                for (final TpchTable t : TpchTable.values()) {
                    names.add(t.tableName());
                }
                DuckDbLoader.load(Store.open(local), names, duck);
                final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", "s3://tpch/sf0.01");
                assertThat(gen.exitCode()).as(gen.toString()).isZero();

                final String address;
                try (DatagramSocket free = new DatagramSocket(0)) {
                    address = "127.0.0.1:" + free.getLocalPort();
                }
                final Path caches = dir.resolve("caches");
                final List<String> args = new ArrayList<>(List.of("cluster", "up", "--cn", "2", "--cores", "2",
                        "--store", "s3://tpch/sf0.01", "--cache-dir", caches.toString(), "--listen", address,
                        "--jvm-arg=-Xmx384m", "--jvm-arg=-Dsluice.storage.openBlockFiles=1"));
                for (final String p : properties) {
                    args.add("--jvm-arg=" + p);
                }
                try (JavaProcess up = JavaProcess.of(SluiceCommand.class)
                        .jvmArgs("-Xmx256m", properties[0], properties[1], properties[2])
                        .args(args.toArray(String[]::new)).start()) {
                    up.awaitLine(l -> l.startsWith("cluster up: 2 CNs x 2 cores, coordinator " + address), START);

                    final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
                    final Path cold = dir.resolve("cold.json");
                    final Cli.Result sql = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "-f", q12.toString(), "--format", "csv", "--strategy", "colocate", "--stats-json",
                            cold.toString());
                    assertThat(sql.exitCode()).as(sql.toString()).isZero();
                    assertThat(lines(sql)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));
                    // Both caches were empty: what they hold now is what the CNs fetched, each block by one GET.
                    final List<Path> fetched = cachedBlocks(caches);
                    final long fetchedBytes = objectBytes(server, fetched);
                    assertThat(fetched).isNotEmpty();
                    assertThat(counter(cold, "gets")).isEqualTo(fetched.size());
                    assertThat(counter(cold, "bytes_read")).isEqualTo(fetchedBytes);
                    final Cli.Result q18 = Cli.run("query", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "--tpch", "18", "--format", "csv");
                    assertThat(q18.exitCode()).as(q18.toString()).isZero();
                    assertThat(lines(q18)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(18)));
                    for (final String cn : List.of("cn0", "cn1")) {
                        try (Stream<Path> files = Files.walk(caches.resolve(cn))) {
                            assertThat(files.filter(p -> p.toString().endsWith(".sbk")).count())
                                    .as("blocks cached by %s", cn).isPositive();
                        }
                    }

                    try (S3Client client = server.settings().client()) {
                        for (final S3Object o : client.listObjectsV2Paginator(b -> b.bucket("tpch")).contents()) {
                            if (o.key().endsWith(".sbk")) {
                                client.deleteObject(b -> b.bucket("tpch").key(o.key()));
                            }
                        }
                    }
                    final Path warm = dir.resolve("warm.json");
                    final Cli.Result again = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "-f", q12.toString(), "--format", "csv", "--strategy", "colocate", "--stats-json",
                            warm.toString());
                    assertThat(again.exitCode()).as(again.toString()).isZero();
                    assertThat(lines(again)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));
                    // One open block file per CN (sluice.storage.openBlockFiles=1): the others reopen from the cache.
                    assertThat(counter(warm, "gets")).isZero();
                    assertThat(counter(warm, "bytes_read")).isZero();
                    assertThat(counter(warm, "cache_hits")).isPositive();
                    assertThat(counter(warm, "bytes_from_cache")).isPositive();

                    final Cli.Result analyzed = Cli.run("query", "--store", "s3://tpch/sf0.01", "--coordinator",
                            address, "--tpch", "12", "--strategy", "colocate", "--explain=analyze");
                    assertThat(analyzed.exitCode()).as(analyzed.toString()).isZero();
                    assertThat(analyzed.err()).containsPattern("Object storage: 0 GETs of 0 bytes; block cache: [1-9][0-9]*"
                            + " hits of [1-9][0-9]* bytes");

                    // A table written after the CNs started is seen by the coordinator and the CNs, as on disk.
                    final Path items = Files.writeString(dir.resolve("items.csv"), "k,s\n1,a\n2,b\n3,c\n");
                    final Cli.Result imported = Cli.run("import", "--csv", items.toString(), "--store",
                            "s3://tpch/sf0.01", "--table", "items", "--schema", "k:int64,s:string");
                    assertThat(imported.exitCode()).as(imported.toString()).isZero();
                    final Cli.Result newTable = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "--format", "csv", "select count(*) as n, sum(k) as total from items");
                    assertThat(newTable.exitCode()).as(newTable.toString()).isZero();
                    assertThat(lines(newTable)).containsExactly("n,total", "3,6");

                    up.signal("TERM");
                    assertThat(up.awaitExit(START)).as("cluster up after SIGTERM").isEqualTo(143);
                }
            } finally {
                for (final String p : properties) {
                    System.clearProperty(p.substring(2).split("=", 2)[0]);
                }
            }
        }
    }

    /** The residues mod {@code cns} of the numbers of the {@code table} blocks cached under one CN's directory. */
    private static java.util.Set<Integer> residuesOfCached(final Path cnCache, final String table, final int cns)
            throws Exception {
        final java.util.Set<Integer> residues = new java.util.TreeSet<>();
        for (final Path p : cachedBlocks(cnCache)) {
            if (p.getParent().getParent().getFileName().toString().equals(table)) {
                final String name = p.getFileName().toString();
                final String number = name.substring("block-".length(), name.length() - ".sbk".length());
                residues.add(Integer.parseInt(number) % cns);
            }
        }
        return residues;
    }

    @Test
    void aScanNoColocationPinsReadsEachBlockOnTheCnThatCachedItSoASecondQueryMakesNoGets() throws Exception {
        try (S3TestServer server = S3TestServer.start(dir.resolve("server"));
             Connection duck = DuckDbLoader.openInMemory(2)) {
            server.createBucket("tpch");
            final String[] properties = {"-Daws.endpointUrl=" + server.endpoint(),
                "-Daws.accessKeyId=" + S3TestServer.ACCESS_KEY, "-Daws.secretAccessKey=" + S3TestServer.SECRET_KEY};
            for (final String p : properties) {
                final String[] kv = p.substring(2).split("=", 2);
                System.setProperty(kv[0], kv[1]);
            }
            try {
                final Path local = dir.resolve("local");
                assertThat(Cli.run("gen", "--sf", "0.01", "--out", local.toString()).exitCode()).isZero();
                DuckDbLoader.load(Store.open(local), List.of("lineitem", "orders"), duck);
                final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", "s3://tpch/sf0.01");
                assertThat(gen.exitCode()).as(gen.toString()).isZero();

                final String address;
                try (DatagramSocket free = new DatagramSocket(0)) {
                    address = "127.0.0.1:" + free.getLocalPort();
                }
                final Path caches = dir.resolve("caches");
                final List<String> args = new ArrayList<>(List.of("cluster", "up", "--cn", "3", "--cores", "1",
                        "--store", "s3://tpch/sf0.01", "--cache-dir", caches.toString(), "--listen", address,
                        "--jvm-arg=-Xmx320m"));
                for (final String p : properties) {
                    args.add("--jvm-arg=" + p);
                }
                try (JavaProcess up = JavaProcess.of(SluiceCommand.class)
                        .jvmArgs("-Xmx256m", properties[0], properties[1], properties[2])
                        .args(args.toArray(String[]::new)).start()) {
                    up.awaitLine(l -> l.startsWith("cluster up: 3 CNs x 1 core, coordinator " + address), START);

                    // Q12 colocated: each CN fetches the orders and lineitem blocks of its key range.
                    final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
                    final Path cold = dir.resolve("cold.json");
                    final Cli.Result first = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "-f", q12.toString(), "--format", "csv", "--strategy", "colocate", "--stats-json",
                            cold.toString());
                    assertThat(first.exitCode()).as(first.toString()).isZero();
                    assertThat(lines(first)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));
                    assertThat(counter(cold, "gets")).isEqualTo(cachedBlocks(caches).size());
                    // Round-robin (block b on CN b % 3) would read some of them on another CN than the one caching
                    // them: a CN caches lineitem blocks of two residues mod 3, of which round-robin keeps one there.
                    boolean mixed = false;
                    for (final String cn : List.of("cn0", "cn1", "cn2")) {
                        mixed |= residuesOfCached(caches.resolve(cn), "lineitem", 3).size() > 1;
                    }
                    assertThat(mixed).as("a CN caches lineitem blocks round-robin would read elsewhere").isTrue();

                    // Q1 scans lineitem without colocation: every block is read where it is cached.
                    final Path warm = dir.resolve("warm.json");
                    final Cli.Result second = Cli.run("query", "--store", "s3://tpch/sf0.01", "--coordinator",
                            address, "--tpch", "1", "--format", "csv", "--stats-json", warm.toString());
                    assertThat(second.exitCode()).as(second.toString()).isZero();
                    assertThat(lines(second)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(1)));
                    assertThat(counter(warm, "gets")).isZero();
                    assertThat(counter(warm, "bytes_read")).isZero();

                    up.signal("TERM");
                    assertThat(up.awaitExit(START)).as("cluster up after SIGTERM").isEqualTo(143);
                }
            } finally {
                for (final String p : properties) {
                    System.clearProperty(p.substring(2).split("=", 2)[0]);
                }
            }
        }
    }
}
