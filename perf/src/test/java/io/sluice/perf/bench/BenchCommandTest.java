package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.PlannerProperty;
import io.sluice.perf.cli.Cli;
import io.sluice.perf.tpch.TpchSkew;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One small {@code sluice bench} run (SF 0.01, two queries, 1x1 and 2x1, one timed run, DuckDB
 * beside): the reports are written, CSV and JSON parse (read by DuckDB, a parser independent of
 * the writers) and agree, the charts decode, and summary.md shows the DuckDB ratio and the bytes
 * that crossed CNs. Nothing here depends on how fast anything ran.
 */
class BenchCommandTest {
    private static final List<String> CHARTS = List.of("time-1x1.png", "time-2x1.png", "bytes-2x1.png", "scaling.png");

    @TempDir
    static Path dir;

    private static Path data;
    private static Path out;
    private static Cli.Result first;

    @BeforeAll
    static void runOnce() {
        data = dir.resolve("data");
        out = dir.resolve("out");
        first = Cli.run("bench", "--sf", "0.01", "--queries", "q4,join_lo", "--topologies", "1x1,2x1",
                "--strategies", "broadcast,shuffle-hash,colocate,auto", "--runs", "1", "--warmup", "0", "--vs-duckdb",
                "--data", data.toString(), "--out", out.toString());
    }

    @Test
    void writesEveryReportAndChecksEveryAnswer() {
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.err()).contains("generating", "bench [", "100%");
        assertThat(first.out()).contains("Answers: every Sluice answer equal to DuckDB's", "wrote results.csv");
        for (final String file : List.of("results.csv", "results.json", "summary.md")) {
            assertThat(out.resolve(file)).isNotEmptyFile();
        }
    }

    @Test
    void csvAndJsonParseAndAgree() throws Exception {
        assertThat(Files.readAllLines(out.resolve("results.csv")).get(0)).isEqualTo(String.join(",", BenchCsv.COLUMNS));
        final String csv = out.resolve("results.csv").toString().replace("'", "''");
        final String json = out.resolve("results.json").toString().replace("'", "''");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            final List<List<Object>> fromCsv = rows(duck, "select query, topology, strategy, median_ms, rows_remote,"
                    + " bytes_remote, ratio_to_duckdb, answer from read_csv('" + csv + "', header = true)"
                    + " order by all");
            final List<List<Object>> fromJson = rows(duck, "select c.query, c.topology, c.strategy, c.sluice_ms.median,"
                    + " c.rows_remote, c.bytes_remote, c.ratio_to_duckdb, c.answer"
                    + " from (select unnest(cells) as c from read_json('" + json + "')) order by all");
            assertThat(fromCsv).hasSize(2 * 2 * 4);
            assertThat(fromJson).hasSize(fromCsv.size());
            for (int i = 0; i < fromCsv.size(); i++) {
                final List<Object> a = fromCsv.get(i);
                final List<Object> b = fromJson.get(i);
                assertThat(a.subList(0, 3)).as("cell %d", i).isEqualTo(b.subList(0, 3));
                assertThat(number(a.get(3))).as("median of %s", a).isEqualTo(number(b.get(3))).isPositive();
                assertThat(number(a.get(4))).isEqualTo(number(b.get(4)));
                assertThat(number(a.get(5))).isEqualTo(number(b.get(5)));
                assertThat(number(a.get(6))).isEqualTo(number(b.get(6))).isPositive();
                assertThat(a.get(7)).isEqualTo(b.get(7)).isEqualTo("OK");
                if (a.get(1).equals("1x1")) {
                    assertThat(number(a.get(5))).as("bytes crossing CNs on one CN, %s", a).isZero();
                }
            }
            final List<List<Object>> settings = rows(duck, "select scale_factor, runs, warmup, vs_duckdb, topologies"
                    + " from read_json('" + json + "')");
            assertThat(settings.get(0).subList(0, 4)).containsExactly(0.01, 1L, 0L, true);
        }
    }

    @Test
    void colocationMovesFewerBytesAcrossCnsThanAHashShuffle() throws Exception {
        final String csv = out.resolve("results.csv").toString().replace("'", "''");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            final List<List<Object>> moved = rows(duck, "select query, strategy, bytes_remote, bytes_remote_vs_shuffle_hash"
                    + " from read_csv('" + csv + "', header = true) where topology = '2x1' order by all");
            for (final List<Object> row : moved) {
                if (row.get(1).equals("colocate")) {
                    assertThat(number(row.get(3))).as("%s", row).isLessThan(0.1);
                }
                if (row.get(1).equals("shuffle-hash")) {
                    assertThat(number(row.get(2))).as("%s", row).isPositive();
                    assertThat(number(row.get(3))).as("%s", row).isEqualTo(1.0);
                }
            }
        }
    }

    @Test
    void chartsAreImages() throws Exception {
        for (final String chart : CHARTS) {
            final BufferedImage image = ImageIO.read(out.resolve(chart).toFile());
            assertThat(image).as(chart).isNotNull();
            assertThat(image.getWidth()).as(chart).isGreaterThan(400);
            assertThat(image.getHeight()).as(chart).isGreaterThan(300);
        }
    }

    @Test
    void summaryShowsTheDuckDbRatioAndTheBytesMoved() throws Exception {
        final String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("**Answers: every Sluice answer equal to DuckDB's**")
                .contains("## Median ms on 1x1 (x DuckDB)", "## Median ms on 2x1 (x DuckDB)")
                .contains("| query | DuckDB | broadcast | shuffle-hash | colocate | auto |")
                .contains("## MiB crossing CNs on 2x1")
                .doesNotContain("## MiB crossing CNs on 1x1")
                .containsPattern("\\| q4 \\| [0-9.]+ \\| [0-9.]+ \\([0-9.]+x\\) \\|");
        final String header = summary.lines().filter(l -> l.startsWith("| query | topology | strategy |"))
                .findFirst().orElseThrow();
        assertThat(header).contains("| DuckDB ms | vs DuckDB |", "| MiB across CNs | bytes vs shuffle-hash |");
        assertThat(summary.lines().filter(l -> l.startsWith("| join_lo | 2x1 | colocate |"))).singleElement()
                .satisfies(l -> assertThat(l).endsWith("| ok |").containsPattern("\\| [0-9.]+x \\|"));
    }

    @Test
    void aSecondRunReusesTheCachedData() {
        final Cli.Result again = Cli.run("bench", "--sf", "0.01", "--queries", "join_lo", "--topologies", "2x1",
                "--strategies", "colocate", "--runs", "1", "--warmup", "0", "--data", data.toString(),
                "--out", dir.resolve("again").toString());
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.err()).doesNotContain("generating");
        assertThat(again.out()).contains("every Sluice answer equal to the first strategy's (no DuckDB)");
        assertThat(dir.resolve("again").resolve("summary.md")).content().contains("## Median ms on 2x1\n")
                .doesNotContain("| query | DuckDB |");
    }

    @Test
    void embeddedCnsAndCnProcessesAreMeasuredSideBySideInOneRun() throws Exception {
        final Path both = dir.resolve("both");
        final Cli.Result run = Cli.run("bench", "--sf", "0.01", "--queries", "q4,join_lo", "--topologies", "2x1",
                "--strategies", "shuffle-hash,colocate", "--runs", "1", "--warmup", "0", "--vs-duckdb",
                "--cluster", "embedded,processes", "--data", data.toString(), "--out", both.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("Answers: every Sluice answer equal to DuckDB's");
        final String csv = both.resolve("results.csv").toString().replace("'", "''");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            final List<List<Object>> cells = rows(duck, "select cluster, query, strategy, bytes_remote,"
                    + " cn_peak_rss_bytes, peak_heap_bytes, answer from read_csv('" + csv + "', header = true)"
                    + " order by all");
            assertThat(cells).hasSize(2 * 2 * 2);
            assertThat(cells).extracting(r -> r.get(0)).containsOnly("embedded", "processes");
            assertThat(cells).allSatisfy(r -> assertThat(r.get(6)).as("%s", r).isEqualTo("OK"));
            for (final List<Object> r : cells) {
                if (r.get(0).equals("processes")) {
                    assertThat(number(r.get(4))).as("a CN process's peak RSS, %s", r).isPositive();
                    assertThat(r.get(5)).as("no heap of this JVM for CN processes, %s", r).isNull();
                    if (r.get(2).equals("shuffle-hash")) {
                        assertThat(number(r.get(3))).as("bytes between CN processes, %s", r).isPositive();
                    }
                }
            }
        }
        assertThat(Files.readString(both.resolve("summary.md")))
                .contains("## Median ms on 2x1 embedded (x DuckDB)", "## Median ms on 2x1 processes (x DuckDB)",
                        "CNs in one JVM over aeron:ipc and CN processes over UDP");
        assertThat(both.resolve("time-2x1-processes.png")).isNotEmptyFile();
    }

    /** join_lp on 3x1 under shuffle-hash over skew-1.5 data: its bucket_max_over_mean and answer cells. */
    private static List<List<Object>> skewedBench(final Path data, final Path out, final boolean heavyKeys)
            throws Exception {
        final String property = PlannerProperty.HEAVY_KEYS.key();
        final String before = System.getProperty(property);
        System.setProperty(property, Boolean.toString(heavyKeys));
        try {
            final Cli.Result r = Cli.run("bench", "--sf", "0.01", "--skew", "1.5", "--queries", "join_lp",
                    "--topologies", "3x1", "--strategies", "shuffle-hash", "--runs", "1", "--warmup", "0", "--data",
                    data.toString(), "--out", out.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
        final String csv = out.resolve("results.csv").toString().replace("'", "''");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            return rows(duck, "select bucket_max_over_mean, answer from read_csv('" + csv + "', header = true)");
        }
    }

    @Test
    void skewedDataIsGeneratedApartAndItsShufflesShowTheirFullestBucket() throws Exception {
        final Path skewedData = dir.resolve("data-skew1.5");
        // Heavy keys dispatched apart (the default) even the buckets out; without, the skew shows.
        final List<List<Object>> apart = skewedBench(skewedData, dir.resolve("skewed"), true);
        try (Table lineitem = Store.open(skewedData).table("lineitem")) {
            assertThat(lineitem.manifest().attributes()).containsEntry(TpchSkew.ATTRIBUTE, "1.5");
        }
        final List<List<Object>> together = skewedBench(skewedData, dir.resolve("skewed-together"), false);
        // The top part's 39% of lineitem fills its bucket of three: about 1.2 of the mean at least.
        assertThat(number(together.get(0).get(0))).as("%s", together).isGreaterThan(1.15);
        assertThat(number(apart.get(0).get(0))).as("%s against %s", apart, together)
                .isLessThan(number(together.get(0).get(0)));
        assertThat(together.get(0).get(1)).isEqualTo("OK");
        assertThat(apart.get(0).get(1)).isEqualTo("OK");
        // The uniform store is refused for a skewed run, and the other way round.
        final Cli.Result uniformAsSkewed = Cli.run("bench", "--sf", "0.01", "--skew", "1.5", "--queries", "join_lp",
                "--data", data.toString(), "--out", dir.resolve("wrong-skew").toString());
        assertThat(uniformAsSkewed.exitCode()).as(uniformAsSkewed.toString()).isEqualTo(1);
        assertThat(uniformAsSkewed.err()).contains("generated uniform, not with --skew 1.5");
        final Cli.Result skewedAsUniform = Cli.run("bench", "--sf", "0.01", "--queries", "join_lp",
                "--data", skewedData.toString(), "--out", dir.resolve("wrong-uniform").toString());
        assertThat(skewedAsUniform.exitCode()).as(skewedAsUniform.toString()).isEqualTo(1);
        assertThat(skewedAsUniform.err()).contains("generated with --skew 1.5, not uniform");
    }

    @Test
    void dataOfAnotherScaleIsRefused() {
        final Cli.Result wrong = Cli.run("bench", "--sf", "0.02", "--queries", "join_lo", "--data", data.toString(),
                "--out", dir.resolve("wrong").toString());
        assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(1);
        assertThat(wrong.err()).startsWith("sluice bench: error: ").contains("store of another scale");
    }

    private static List<List<Object>> rows(final Connection duck, final String sql) throws Exception {
        final List<List<Object>> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            final int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                final List<Object> row = new ArrayList<>();
                for (int c = 1; c <= n; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static double number(final Object value) {
        return ((Number) value).doubleValue();
    }
}
