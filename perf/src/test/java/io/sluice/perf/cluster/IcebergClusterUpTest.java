package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.iceberg.IcebergTpch;
import io.sluice.perf.tpch.TpchSql;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice cluster up --iceberg CATALOG}: a coordinator and CN processes ({@code sluice cn --iceberg}) that
 * read the same Iceberg tables; {@code sluice sql --iceberg --coordinator} plans over the manifests' and files'
 * statistics here and gets DuckDB's rows from the processes.
 */
class IcebergClusterUpTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void cnProcessesReadingIcebergTablesAnswerAsDuckDbDoes() throws Exception {
        try (IcebergTpch tpch = IcebergTpch.generate(dir, 0.01, 8192, 3)) {
            final String address;
            try (DatagramSocket free = new DatagramSocket(0)) {
                address = "127.0.0.1:" + free.getLocalPort();
            }
            final String catalog = tpch.catalogUri();
            try (JavaProcess up = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m").args("cluster", "up", "--cn",
                    "2", "--cores", "2", "--iceberg", catalog, "--iceberg-namespace", IcebergTpch.NAMESPACE, "--listen",
                    address, "--jvm-arg=-Xmx384m").start()) {
                up.awaitLine(l -> l.startsWith("cluster up: 2 CNs x 2 cores, coordinator " + address)
                        && l.contains("--iceberg " + catalog + " --iceberg-namespace " + IcebergTpch.NAMESPACE), START);

                final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
                final Cli.Result sql = Cli.run("sql", "--iceberg", catalog, "--coordinator", address, "-f",
                        q12.toString(), "--format", "csv", "--strategy", "colocate");
                assertThat(sql.exitCode()).as(sql.toString()).isZero();
                assertThat(List.of(sql.out().split("\r\n"))).isEqualTo(DuckDbCsv.of(tpch.duck(), TpchSql.text(12)));

                up.signal("TERM");
                assertThat(up.awaitExit(START)).as("cluster up after SIGTERM").isEqualTo(143);
            }
        }
    }
}
