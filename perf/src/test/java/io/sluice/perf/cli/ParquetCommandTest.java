package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.parquet.ParquetTpch;
import io.sluice.perf.tpch.TpchSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql --parquet DIR} and {@code sluice query --parquet DIR} over TPC-H Parquet files DuckDB
 * wrote: DuckDB's rows on this process's cores and on an embedded cluster; a file Sluice cannot read, both
 * --store and --parquet, or a folder without tables are errors that say what to do.
 */
class ParquetCommandTest {
    @TempDir
    static Path dir;

    private static ParquetTpch tpch;

    @BeforeAll
    static void generate() throws Exception {
        tpch = ParquetTpch.generate(dir, 0.01, 8192);
    }

    @AfterAll
    static void close() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    private static List<String> lines(final Cli.Result r) {
        return List.of(r.out().split("\r\n"));
    }

    @Test
    void sqlOverAFolderOfParquetFilesPrintsDuckDbsRowsOnCoresAndOnACluster() throws Exception {
        final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
        final List<String> expected = DuckDbCsv.of(tpch.duck(), TpchSql.text(12));
        final Cli.Result local = Cli.run("sql", "--parquet", tpch.dir().toString(), "-f", q12.toString(), "--cores", "2",
                "--format", "csv");
        assertThat(local.exitCode()).as(local.toString()).isZero();
        assertThat(lines(local)).isEqualTo(expected);
        final Cli.Result cluster = Cli.run("sql", "--parquet", tpch.dir().toString(), "-f", q12.toString(), "--cn", "3",
                "--cores", "2", "--format", "csv", "--strategy", "colocate");
        assertThat(cluster.exitCode()).as(cluster.toString()).isZero();
        assertThat(lines(cluster)).isEqualTo(expected);
    }

    @Test
    void queryRunsATpchQueryFromItsTextOverTheFiles() throws Exception {
        final Cli.Result r = Cli.run("query", "--parquet", tpch.dir().toString(), "--tpch", "4", "--cn", "2", "--cores",
                "2", "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(lines(r)).isEqualTo(DuckDbCsv.of(tpch.duck(), TpchSql.text(4)));
    }

    @Test
    void aColumnSluiceCannotReadNamesTheFileColumnAndType() throws Exception {
        final Path bad = Files.createDirectories(dir.resolve("bad"));
        final Path file = bad.resolve("prices.parquet");
        try (Statement s = tpch.duck().createStatement()) {
            s.execute("copy (select 1::bigint as k, 2.5::double as price) to '" + file + "' (format parquet)");
        }
        final Cli.Result r = Cli.run("sql", "--parquet", bad.toString(), "select k from prices");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(file.toString(), "column 'price' has type DOUBLE", "it reads INT32 and INT64");
    }

    @Test
    void bothSourcesOrAFolderWithoutTablesAreErrorsThatSayWhatToGive() throws Exception {
        final Cli.Result both = Cli.run("sql", "--parquet", tpch.dir().toString(), "--store", dir.toString(),
                "select 1");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.err()).contains("give one of --store DIR", "--parquet DIR", "not several");

        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final Cli.Result none = Cli.run("sql", "--parquet", empty.toString(), "select 1");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.err()).contains("parquet directory " + empty + " holds no table",
                "put NAME.parquet files or NAME/ folders");

        final Cli.Result neither = Cli.run("sql", "select 1");
        assertThat(neither.exitCode()).isEqualTo(1);
        assertThat(neither.err()).contains("give --store DIR", "--parquet DIR", "or --iceberg CATALOG");

        final Cli.Result missing = Cli.run("sql", "--parquet", tpch.dir().toString(), "select * from nosuch");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("nosuch");
    }
}
