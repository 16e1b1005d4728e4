package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.iceberg.IcebergTpch;
import io.sluice.perf.tpch.TpchSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql --iceberg} and {@code sluice query --iceberg} over TPC-H Iceberg tables (a JDBC catalog on
 * SQLite, several Parquet files per table): DuckDB's rows on this process's cores and on an embedded cluster,
 * through the catalog and through the tables' metadata folders; a source of no known form, a namespace or table the
 * catalog lacks, and --iceberg beside another source are errors that say what to give.
 */
class IcebergCommandTest {
    @TempDir
    static Path dir;

    private static IcebergTpch tpch;

    @BeforeAll
    static void generate() throws Exception {
        tpch = IcebergTpch.generate(dir, 0.01, 8192, 3);
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
    void sqlOverACatalogPrintsDuckDbsRowsOnCoresAndOnACluster() throws Exception {
        final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
        final List<String> expected = DuckDbCsv.of(tpch.duck(), TpchSql.text(12));
        final Cli.Result local = Cli.run("sql", "--iceberg", tpch.catalogUri(), "--iceberg-namespace",
                IcebergTpch.NAMESPACE, "-f", q12.toString(), "--cores", "2", "--format", "csv");
        assertThat(local.exitCode()).as(local.toString()).isZero();
        assertThat(lines(local)).isEqualTo(expected);
        // The catalog has one namespace: it needs no naming.
        final Cli.Result cluster = Cli.run("sql", "--iceberg", tpch.catalogUri(), "-f", q12.toString(), "--cn", "3",
                "--cores", "2", "--format", "csv", "--strategy", "colocate");
        assertThat(cluster.exitCode()).as(cluster.toString()).isZero();
        assertThat(lines(cluster)).isEqualTo(expected);
    }

    @Test
    void statsJsonCountsTheDataFilesAQueryReadAndAFilterOnTheFilesKeyReadsOne() throws Exception {
        final long lo;
        final long hi;
        try (Statement s = tpch.duck().createStatement(); ResultSet r = s.executeQuery("select min(l_orderkey),"
                + " max(l_orderkey) from read_parquet('" + tpch.files("lineitem").get(1) + "')")) {
            r.next();
            // Inside the file's bounds: an order's lines may straddle two files.
            lo = r.getLong(1) + 1;
            hi = r.getLong(2) - 1;
        }
        final Path selective = dir.resolve("selective.json");
        final String sql = "select count(*) as n from lineitem where l_orderkey between " + lo + " and " + hi;
        final Cli.Result one = Cli.run("sql", "--iceberg", tpch.catalogUri(), "--stats-json", selective.toString(),
                sql, "--format", "csv");
        assertThat(one.exitCode()).as(one.toString()).isZero();
        assertThat(lines(one)).isEqualTo(DuckDbCsv.of(tpch.duck(), sql));
        final String json = Files.readString(selective);
        assertThat(number(json, "data_files")).as(json).isEqualTo(3);
        assertThat(number(json, "data_files_read")).as(json).isEqualTo(1);

        final Path all = dir.resolve("all.json");
        final Cli.Result every = Cli.run("sql", "--iceberg", tpch.catalogUri(), "--stats-json", all.toString(),
                "select count(*) as n from lineitem where l_quantity < 2", "--format", "csv");
        assertThat(every.exitCode()).as(every.toString()).isZero();
        assertThat(number(Files.readString(all), "data_files_read")).isEqualTo(3);
    }

    private static long number(final String json, final String name) {
        final Matcher m = Pattern.compile("\"" + name + "\": (\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void queryRunsATpchQueryOverTheTablesMetadataFoldersWithoutTheCatalog() throws Exception {
        final Path folder = dir.resolve("warehouse").resolve(IcebergTpch.NAMESPACE);
        final Cli.Result r = Cli.run("query", "--iceberg", folder.toString(), "--tpch", "4", "--cn", "2", "--cores",
                "2", "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(lines(r)).isEqualTo(DuckDbCsv.of(tpch.duck(), TpchSql.text(4)));
    }

    @Test
    void icebergAddMakesFolderTablesOfParquetFilesThatSqlReads() throws Exception {
        final Path warehouse = dir.resolve("added");
        final Path lineitem = tpch.files("lineitem").get(0).getParent();
        final Cli.Result first = Cli.run("iceberg-add", warehouse.resolve("lineitem").toString(),
                tpch.files("lineitem").get(0).toString());
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).contains("added 1 file", "1 data file in all", "--iceberg " + warehouse);
        final Cli.Result rest = Cli.run("iceberg-add", warehouse.resolve("lineitem").toString(),
                tpch.files("lineitem").get(1).toString(), tpch.files("lineitem").get(2).toString());
        assertThat(rest.exitCode()).as(rest.toString()).isZero();
        assertThat(rest.out()).contains("added 2 files", "3 data files in all");
        final String sql = "select l_returnflag, count(*) as n, sum(l_extendedprice) as s from lineitem"
                + " group by l_returnflag order by l_returnflag";
        final Cli.Result r = Cli.run("sql", "--iceberg", warehouse.toString(), sql, "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(lines(r)).isEqualTo(DuckDbCsv.of(tpch.duck(), sql));

        final Cli.Result absent = Cli.run("iceberg-add", warehouse.resolve("lineitem").toString(),
                lineitem.resolve("nope.parquet").toString());
        assertThat(absent.exitCode()).isEqualTo(1);
        assertThat(absent.err()).contains("nope.parquet does not exist");
    }

    @Test
    void queryBenchComparesWithDuckDbReadingTheSameDataFiles() {
        final Cli.Result r = Cli.run("query-bench", "--iceberg", tpch.catalogUri(), "--queries", "q4,q12", "--runs",
                "1", "--warmup", "0", "--cores", "2");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("as read_parquet views in DuckDB").doesNotContain("differ", "failed");
        assertThat(r.out()).contains("over 2 queries");
    }

    @Test
    void aBadSourceAMissingNamespaceOrTableAndTwoSourcesAreErrorsThatSayWhatToGive() throws Exception {
        final Cli.Result scheme = Cli.run("sql", "--iceberg", "thrift://metastore:9083", "select 1");
        assertThat(scheme.exitCode()).isEqualTo(1);
        assertThat(scheme.err()).contains("thrift://", "REST catalog URL (http://HOST:PORT/...)", "JDBC catalog URI");

        final Cli.Result noFile = Cli.run("sql", "--iceberg", "jdbc:sqlite:" + dir.resolve("nope.db"), "select 1");
        assertThat(noFile.exitCode()).isEqualTo(1);
        assertThat(noFile.err()).contains("nope.db does not exist");

        final Cli.Result namespace = Cli.run("sql", "--iceberg", tpch.catalogUri(), "--iceberg-namespace", "sales",
                "select 1");
        assertThat(namespace.exitCode()).isEqualTo(1);
        assertThat(namespace.err()).contains("has no namespace 'sales'", "[tpch]");

        final Cli.Result table = Cli.run("sql", "--iceberg", tpch.catalogUri(), "select * from nosuch");
        assertThat(table.exitCode()).isEqualTo(1);
        assertThat(table.err()).contains("nosuch");

        final Cli.Result both = Cli.run("sql", "--iceberg", tpch.catalogUri(), "--parquet", dir.toString(), "select 1");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.err()).contains("give one of --store DIR", "not several");

        final Cli.Result alone = Cli.run("query", "--iceberg-namespace", "tpch", "--parquet", dir.toString(),
                "--tpch", "1");
        assertThat(alone.exitCode()).isEqualTo(1);
        assertThat(alone.err()).contains("--iceberg-namespace needs --iceberg CATALOG");
    }
}
