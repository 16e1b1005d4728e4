package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to {@code sluice bench} fails at once with a clear message and a nonzero exit code:
 * no data is generated and no report is written.
 */
class BenchValidationTest {
    @TempDir
    Path dir;

    @Test
    void unknownNamesAndBadCountsFailBeforeAnyWork() {
        assertFails(1, "unknown query 'q99' in --queries: use all or some of q1,q2,q3,", "--queries", "q4,q99");
        assertFails(1, "unknown queries 'nope', 'q23'", "--queries", "nope,q23");
        assertFails(1, "--strategies: unknown strategy 'fastest'", "--strategies", "colocate,fastest");
        assertFails(1, "--topologies: topology '3y2' is not valid: write CNSxCORES, e.g. 3x2", "--topologies", "1x2,3y2");
        assertFails(1, "--topologies: CN count 0 is not valid", "--topologies", "0x2");
        assertFails(1, "network 'tcp' is not one of ipc, udp", "--network", "tcp");
        assertFails(1, "--runs must be 1 or more, got 0", "--runs", "0");
        assertFails(1, "--warmup must be 0 or more, got -1", "--warmup", "-1");
    }

    @Test
    void theQueriesAreTheTwentyTwoTpchTextsThenTheWorkloadsAndASelectionKeepsItsOrder() {
        final List<Query> all = BenchSpec.queries(List.of("all"));
        final List<String> names = all.stream().map(Query::name).toList();
        assertThat(names.subList(0, TpchSql.COUNT))
                .isEqualTo(IntStream.rangeClosed(1, TpchSql.COUNT).mapToObj(n -> "q" + n).toList());
        assertThat(names.subList(TpchSql.COUNT, names.size())).contains("join_lo", "join_lp", "grp_orderkey")
                .noneMatch(n -> n.matches("q\\d+"));
        for (int n = 1; n <= TpchSql.COUNT; n++) {
            final Query q = all.get(n - 1);
            assertThat(q).as("q%d is timed from its text, also where a Java plan exists", n)
                    .isInstanceOf(TpchTextQuery.class);
            assertThat(q.sql()).isEqualTo(TpchSql.text(n));
        }
        assertThat(BenchSpec.queries(List.of("Q18", "join_lo", "q2", "q18")).stream().map(Query::name))
                .containsExactly("q18", "join_lo", "q2");
        assertThatThrownBy(() -> all.get(3).plan()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("q4 is planned from its text over the bench's store");
    }

    @Test
    void malformedNumbersAreUsageErrors() {
        assertFails(2, "--runs", "--runs", "five");
        assertFails(2, "not a number", "--sf", "tiny");
        assertFails(2, "Unknown option", "--cores", "2");
    }

    @Test
    void anUnwritableOutputOrABadDataDirectoryFailsBeforeAnyWork() throws Exception {
        final Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        assertFails(1, "--out " + file + " exists and is not a directory", "--out", file.toString());
        assertFails(1, "is not a writable directory", "--out", file.resolve("below").toString());
        final List<String> args = new ArrayList<>(List.of("bench", "--data", file.toString(), "--out",
                dir.resolve("out").toString(), "--queries", "q6"));
        final Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice bench: error: --data " + file + " exists and is not a directory");
        assertThat(Files.readString(file)).isEqualTo("not a directory");
    }

    /** Runs with a fresh data and output directory and checks that neither got anything. */
    private void assertFails(final int exitCode, final String message, final String... options) {
        final Path data = dir.resolve("data");
        final Path out = dir.resolve("out");
        final List<String> args = new ArrayList<>(List.of("bench", "--sf", "0.01", "--data", data.toString()));
        if (!List.of(options).contains("--out")) {
            args.addAll(List.of("--out", out.toString()));
        }
        args.addAll(List.of(options));
        final Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(exitCode);
        assertThat(r.err()).as(r.toString()).contains(message);
        if (exitCode == 1) {
            assertThat(r.err()).as(r.toString()).startsWith("sluice bench: error: ");
        }
        assertThat(data).as("no data generated for %s", List.of(options)).doesNotExist();
        assertThat(out.resolve("summary.md")).as("no report for %s", List.of(options)).doesNotExist();
        assertThat(r.err()).doesNotContain("generating").doesNotContainPattern("bench \\[[# ]+\\]");
    }
}
