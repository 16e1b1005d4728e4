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
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code sluice cluster up --store s3://...}: CN processes with nothing on local disk but an empty cache directory
 * each read a store on a real S3 server (S3Proxy); queries give DuckDB's rows; each CN caches the blocks it read in
 * its own directory under {@code --cache-dir}, and the same query runs again with the block objects gone.
 */
class ObjectStoreClusterUpTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private static List<String> lines(final Cli.Result r) {
        return List.of(r.out().split("\r\n"));
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
                        "--jvm-arg=-Xmx384m"));
                for (final String p : properties) {
                    args.add("--jvm-arg=" + p);
                }
                try (JavaProcess up = JavaProcess.of(SluiceCommand.class)
                        .jvmArgs("-Xmx256m", properties[0], properties[1], properties[2])
                        .args(args.toArray(String[]::new)).start()) {
                    up.awaitLine(l -> l.startsWith("cluster up: 2 CNs x 2 cores, coordinator " + address), START);

                    final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
                    final Cli.Result sql = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "-f", q12.toString(), "--format", "csv", "--strategy", "colocate");
                    assertThat(sql.exitCode()).as(sql.toString()).isZero();
                    assertThat(lines(sql)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));
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
                    final Cli.Result again = Cli.run("sql", "--store", "s3://tpch/sf0.01", "--coordinator", address,
                            "-f", q12.toString(), "--format", "csv", "--strategy", "colocate");
                    assertThat(again.exitCode()).as(again.toString()).isZero();
                    assertThat(lines(again)).isEqualTo(DuckDbCsv.of(duck, TpchSql.text(12)));

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
