package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.parquet.ParquetTpch;
import io.sluice.perf.tpch.TpchSql;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice cluster up --parquet DIR}: a coordinator and CN processes ({@code sluice cn --parquet DIR})
 * that read the same Parquet files; {@code sluice sql} and {@code sluice query} with {@code --parquet DIR
 * --coordinator} plan over the files' statistics here and get DuckDB's rows from the processes; a table the
 * folder lacks fails with the CNs' error naming it.
 */
class ParquetClusterUpTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void cnProcessesReadingParquetFilesAnswerAsDuckDbDoes() throws Exception {
        try (ParquetTpch tpch = ParquetTpch.generate(dir, 0.01, 8192)) {
            final String address;
            try (DatagramSocket free = new DatagramSocket(0)) {
                address = "127.0.0.1:" + free.getLocalPort();
            }
            final String files = tpch.dir().toString();
            try (JavaProcess up = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m").args("cluster", "up", "--cn",
                    "2", "--cores", "2", "--parquet", files, "--listen", address, "--jvm-arg=-Xmx384m").start()) {
                up.awaitLine(l -> l.startsWith("cluster up: 2 CNs x 2 cores, coordinator " + address)
                        && l.contains("--parquet " + files), START);

                final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
                final Cli.Result sql = Cli.run("sql", "--parquet", files, "--coordinator", address, "-f",
                        q12.toString(), "--format", "csv", "--strategy", "colocate");
                assertThat(sql.exitCode()).as(sql.toString()).isZero();
                assertThat(List.of(sql.out().split("\r\n"))).isEqualTo(DuckDbCsv.of(tpch.duck(), TpchSql.text(12)));

                final Cli.Result query = Cli.run("query", "--parquet", files, "--coordinator", address, "--tpch", "18",
                        "--format", "csv");
                assertThat(query.exitCode()).as(query.toString()).isZero();
                assertThat(List.of(query.out().split("\r\n"))).isEqualTo(DuckDbCsv.of(tpch.duck(), TpchSql.text(18)));

                // Planned here over a folder that has the table; the CNs' folder does not.
                final Path other = Files.createDirectories(dir.resolve("other"));
                Files.copy(tpch.dir().resolve("region.parquet"), other.resolve("extra.parquet"));
                final Cli.Result missing = Cli.run("sql", "--parquet", other.toString(), "--coordinator", address,
                        "select count(*) from extra");
                assertThat(missing.exitCode()).isEqualTo(1);
                assertThat(missing.err()).contains("parquet directory " + files + " has no table 'extra'");

                up.signal("TERM");
                assertThat(up.awaitExit(START)).as("cluster up after SIGTERM").isEqualTo(143);
            }
        }
    }
}
