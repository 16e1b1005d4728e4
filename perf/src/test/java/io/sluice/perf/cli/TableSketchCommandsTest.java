package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.storage.StatisticsFile;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An imported table in arrival order whose key is 30% one value and 10% another (the rest uniform over
 * 1..100 000): its zonemaps all span the whole domain, so without the sketch {@code import} writes,
 * {@code sluice boundaries} takes the key for uniform and its estimates miss the buckets by far; with it,
 * the estimates are the rows the scan counts and the two heavy keys are named with their shares. A table
 * without a sketch is told to run {@code sluice analyze}, and the command it prints works.
 */
class TableSketchCommandsTest {
    private static final int ROWS = 60_000;

    @TempDir
    static Path dir;
    private static Path store;

    @BeforeAll
    static void importSkewedTable() throws IOException {
        store = dir.resolve("store");
        final Path csv = dir.resolve("facts.csv");
        final SplittableRandom random = new SplittableRandom(31);
        final StringBuilder text = new StringBuilder("k,v\n");
        for (int i = 0; i < ROWS; i++) {
            final double u = random.nextDouble();
            final long key = u < 0.3 ? 77_777 : u < 0.4 ? 12_345 : 1 + random.nextLong(100_000);
            text.append(key).append(',').append(i).append('\n');
        }
        Files.writeString(csv, text);
        for (final String table : List.of("facts", "old_facts")) {
            final Cli.Result r = Cli.run("import", "--csv", csv.toString(), "--store", store.toString(), "--table", table,
                    "--schema", "k:int64,v:int64");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
        // A table written before import kept sketches: its statistics file gone.
        try (Table old = Store.open(store).table("old_facts")) {
            Files.delete(old.dataDir().resolve(StatisticsFile.FILE));
        }
    }

    private static Cli.Result boundaries(final String table) {
        return Cli.run("boundaries", "--store", store.toString(), "--table", table, "--column", "k", "--topology", "3x2");
    }

    /** Estimated and actual rows of each bucket of a boundaries report. */
    private static List<long[]> buckets(final String report) {
        final Matcher m = Pattern.compile("(?m)^\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\S.*?\\s(\\d+)\\s+(\\d+)$").matcher(report);
        final List<long[]> rows = new ArrayList<>();
        while (m.find()) {
            rows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
        }
        assertThat(rows).as(report).hasSize(6);
        return rows;
    }

    @Test
    void theImportedSketchShowsTheHeavyKeysAndEstimatesEveryBucket() {
        final Cli.Result r = boundaries("facts");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("statistics: zonemaps and the column's sketch").contains("method: range-quantile")
                .containsPattern("heavy keys \\(over 8\\.33% of the rows, half a bucket\\): 77777 \\(30\\.\\d%\\),"
                        + " 12345 \\(10\\.\\d%\\)\\n");
        for (final long[] bucket : buckets(r.out())) {
            assertThat((double) bucket[0]).as(r.out()).isCloseTo(bucket[1], org.assertj.core.data.Offset.offset(ROWS * 0.02));
        }
    }

    @Test
    void withoutASketchTheKeyLooksUniformAndTheSuggestedAnalyzeFixesIt() {
        final Cli.Result blind = boundaries("old_facts");
        assertThat(blind.exitCode()).as(blind.toString()).isZero();
        assertThat(blind.out()).contains("method: range-uniform").doesNotContain("heavy keys");
        long worst = 0;
        for (final long[] bucket : buckets(blind.out())) {
            worst = Math.max(worst, Math.abs(bucket[0] - bucket[1]));
        }
        assertThat(worst).as("zonemaps of unsorted blocks miss the heavy keys' buckets").isGreaterThan(ROWS / 10);
        final Matcher command = Pattern.compile("`sluice (analyze [^`]+)`").matcher(blind.out());
        assertThat(command.find()).as(blind.out()).isTrue();
        final Cli.Result analyze = Cli.run(command.group(1).split(" "));
        assertThat(analyze.exitCode()).as(analyze.toString()).isZero();
        assertThat(analyze.out()).contains("analyzed 1 table of " + store).contains("old_facts");
        final Cli.Result seen = boundaries("old_facts");
        assertThat(seen.out()).contains("statistics: zonemaps and the column's sketch").contains("77777 (30.");
    }

    @Test
    void analyzeNamesTheTablesAStoreHasWhenAskedForAnother() {
        final Cli.Result r = Cli.run("analyze", "--store", store.toString(), "--tables", "facts,nope");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("has no table 'nope': its tables are facts, old_facts");
    }
}
