package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice boundaries} run in-process on SF 0.1 lineitem (74 blocks: the smallest scale at
 * which a CN boundary splits few enough rows for the 1% check below).
 */
class BoundariesCommandTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void generate() {
        TpchLoader.load(Store.create(dir), TpchTable.LINEITEM, 0.1, rows -> { }).close();
    }

    /** Exit code, stdout and stderr of one run. */
    record Run(int exit, String out, String err) {
    }

    private static Run run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = new CommandLine(new SluiceCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        final int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static Run boundaries(final String table, final String column, final String topology, final String... more) {
        final List<String> args = new ArrayList<>(List.of("boundaries", "--store", dir.toString(), "--table", table,
                "--column", column, "--topology", topology));
        args.addAll(List.of(more));
        return run(args.toArray(new String[0]));
    }

    @Test
    void orderkeyOnThreeCnsIsUniformWithLittleCrossing() {
        final Run r = boundaries("lineitem", "l_orderkey", "3x2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("method: range-uniform").contains("topology 3x2: 6 buckets")
                .contains("cut points: 100001, 200001, 300001, 400001, 500001");
        final Matcher bucketLines = Pattern.compile("(?m)^\\s+(\\d+)\\s+(\\d)\\s+(\\d)\\s+\\[").matcher(r.out());
        int buckets = 0;
        while (bucketLines.find()) {
            buckets++;
        }
        assertThat(buckets).isEqualTo(6);
        final Matcher cross = Pattern.compile("rows crossing CNs: estimated ([0-9.]+)% .* actual ([0-9.]+)%").matcher(r.out());
        assertThat(cross.find()).as(r.out()).isTrue();
        assertThat(Double.parseDouble(cross.group(2))).isLessThan(1.0);
        assertThat(Double.parseDouble(cross.group(1))).isLessThan(1.0);
        System.out.print(r.out());
    }

    @Test
    void jsonCarriesEveryKey() {
        final Run r = boundaries("lineitem", "l_orderkey", "3x2", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        final String json = r.out().trim();
        assertThat(json).startsWith("{").endsWith("}");
        for (final String key : new String[] {"method", "buckets", "cut_points", "estimated_rows", "actual_rows",
            "uniformity", "overlap", "cross_cn_fraction", "extra_read_fraction", "straddle"}) {
            assertThat(json).containsPattern("\"" + key + "\":");
        }
        assertThat(json).contains("\"method\":\"range-uniform\"").contains("\"buckets\":6")
                .contains("\"cut_points\":[100001,200001,300001,400001,500001]");
        final Matcher actual = Pattern.compile("\"actual_rows\":\\[([0-9,]+)]").matcher(json);
        assertThat(actual.find()).isTrue();
        long sum = 0;
        for (final String n : actual.group(1).split(",")) {
            sum += Long.parseLong(n);
        }
        assertThat(sum).isEqualTo(600_572);
        final Matcher cross = Pattern.compile("\"cross_cn_fraction\":\\{\"estimated\":([0-9.eE+-]+),\"actual\":([0-9.eE+-]+)}")
                .matcher(json);
        assertThat(cross.find()).as(json).isTrue();
        assertThat(Double.parseDouble(cross.group(2))).isBetween(0.0, 0.01);
        // The default reads every block once.
        assertThat(json).contains("\"extra_read_fraction\":{\"estimated\":0.00000,\"actual\":0.00000}")
                .contains("\"straddle\":\"majority\"");
    }

    @Test
    void splitStraddlingBlocksCrossNothingAndReadTheirRowsTwice() {
        final Run r = boundaries("lineitem", "l_orderkey", "3x2", "--straddle", "split");
        assertThat(r.exit()).as(r.err()).isZero();
        // Each of the 2 CN cuts falls inside one block, which both of its CNs read.
        assertThat(r.out()).contains("straddling blocks: split (2 blocks read by several CNs");
        final Matcher cross = Pattern.compile("rows crossing CNs: estimated ([0-9.]+)% .* actual ([0-9.]+)% \\((\\d+) rows\\)")
                .matcher(r.out());
        assertThat(cross.find()).as(r.out()).isTrue();
        assertThat(Double.parseDouble(cross.group(1))).isZero();
        assertThat(Long.parseLong(cross.group(3))).isZero();
        final Matcher extra = Pattern.compile("rows read more than once: estimated ([0-9.]+)% \\((\\d+) rows\\),"
                + " actual ([0-9.]+)% \\((\\d+) rows\\)").matcher(r.out());
        assertThat(extra.find()).as(r.out()).isTrue();
        assertThat(Long.parseLong(extra.group(4))).isEqualTo(Long.parseLong(extra.group(2))).isBetween(2L, 2L * 8192);
        assertThat(Double.parseDouble(extra.group(3))).isGreaterThan(0.0);
        System.out.print(r.out());

        final Run json = boundaries("lineitem", "l_orderkey", "3x2", "--straddle", "SPLIT", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"straddle\":\"split\"")
                .contains("\"cross_cn_fraction\":{\"estimated\":0.00000,\"actual\":0.00000}");
        final Matcher fraction = Pattern.compile("\"extra_read_fraction\":\\{\"estimated\":([0-9.eE+-]+),\"actual\":([0-9.eE+-]+)}")
                .matcher(json.out());
        assertThat(fraction.find()).as(json.out()).isTrue();
        assertThat(Double.parseDouble(fraction.group(1))).isEqualTo(Double.parseDouble(fraction.group(2))).isBetween(0.001, 0.05);
        // Every row is still counted once, in its bucket.
        final Matcher actual = Pattern.compile("\"actual_rows\":\\[([0-9,]+)]").matcher(json.out());
        assertThat(actual.find()).isTrue();
        long sum = 0;
        for (final String n : actual.group(1).split(",")) {
            sum += Long.parseLong(n);
        }
        assertThat(sum).isEqualTo(600_572);
    }

    @Test
    void anUnknownStraddlePolicyIsAUsageError() {
        final Run r = boundaries("lineitem", "l_orderkey", "3x2", "--straddle", "half");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--straddle'").contains("'half'").contains("majority")
                .contains("split").contains("Usage: sluice boundaries").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void keysAreShownByType() {
        final Run dates = boundaries("lineitem", "l_shipdate", "2x2");
        assertThat(dates.exit()).as(dates.err()).isZero();
        assertThat(dates.out()).containsPattern("cut points: 19\\d\\d-\\d\\d-\\d\\d, 19\\d\\d-\\d\\d-\\d\\d, 19\\d\\d-\\d\\d-\\d\\d\n");
        final Run decimals = boundaries("lineitem", "l_extendedprice", "2x1", "--json");
        assertThat(decimals.exit()).as(decimals.err()).isZero();
        assertThat(decimals.out()).containsPattern("\"cut_points\":\\[\\d+\\.\\d\\d]");
        final Run strings = boundaries("lineitem", "l_comment", "2x2", "--json");
        assertThat(strings.exit()).as(strings.err()).isZero();
        // Three JSON strings of printable ASCII, bytes outside it written as \\xHH.
        final String jsonString = "\"(?:[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\\\\\x[0-9a-f]{2}|\\\\\")*\"";
        assertThat(strings.out()).containsPattern("\"cut_points\":\\[" + jsonString + "," + jsonString + "," + jsonString + "]");
    }

    @Test
    void aKeyWithFewValuesFallsBackToHashAndSaysWhy() {
        final Run r = boundaries("lineitem", "l_linenumber", "3x2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("method: hash (about 7 distinct keys for 6 buckets");
        final Run json = boundaries("lineitem", "l_linenumber", "3x2", "--json");
        assertThat(json.out()).contains("\"method\":\"hash\"").contains("\"hash_reason\":\"too-few-distinct\"")
                .contains("\"cut_points\":[]");
    }

    @Test
    void badInputIsOneLineOnStderrAndExitOne() {
        final Run topology = boundaries("lineitem", "l_orderkey", "0x2");
        assertThat(topology.exit()).isEqualTo(1);
        assertThat(topology.err()).startsWith("sluice boundaries: error: ").contains("'0x2'").contains("CN count 0");
        final Run shape = boundaries("lineitem", "l_orderkey", "three");
        assertThat(shape.exit()).isEqualTo(1);
        assertThat(shape.err()).contains("'three'").contains("e.g. 3x2");
        final Run table = boundaries("lineitems", "l_orderkey", "3x2");
        assertThat(table.exit()).isEqualTo(1);
        assertThat(table.err()).contains("no table 'lineitems'").contains("lineitem");
        final Run column = boundaries("lineitem", "l_orderkee", "3x2");
        assertThat(column.exit()).isEqualTo(1);
        assertThat(column.err()).contains("no column 'l_orderkee'").contains("l_orderkey");
        final Run threshold = boundaries("lineitem", "l_orderkey", "3x2", "--uniformity-threshold", "2");
        assertThat(threshold.exit()).isEqualTo(1);
        assertThat(threshold.err()).contains("uniformity threshold 2.0");
        for (final Run r : new Run[] {topology, shape, table, column, threshold}) {
            assertThat(r.err().lines().count()).isEqualTo(1);
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(r.out()).isEmpty();
        }
    }
}
