package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.format.LongVector;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pieces of the reports that a full run cannot easily reach: differences, failures, the progress lines. */
class BenchReportTest {
    private static final Topology TWO = Topology.parse("2x1");

    @Test
    void aDifferentAnswerNamesTheRowAndColumn() {
        final QueryResult result = new QueryResult(new RowType(List.of("k", "n"), List.of(DataType.INT64,
                DataType.INT64)), List.of(Batch.of(LongVector.ofInt64(1, 2), LongVector.ofInt64(10, 21))));
        final ReferenceAnswer same = new ReferenceAnswer(List.of("k", "n"),
                List.of(Arrays.asList(1L, 10L), Arrays.asList(2L, 21L)));
        final ReferenceAnswer other = new ReferenceAnswer(List.of("k", "n"),
                List.of(Arrays.asList(1L, 10L), Arrays.asList(2L, 20L)));
        final ReferenceAnswer shorter = new ReferenceAnswer(List.of("k", "n"), List.of(Arrays.asList(1L, 10L)));
        assertThat(AnswerCheck.difference(same, result)).isNull();
        assertThat(AnswerCheck.difference(other, result)).isEqualTo("row 1 column n: Sluice 21, reference 20");
        assertThat(AnswerCheck.difference(shorter, result)).isEqualTo("2 rows but the reference has 1");
        assertThat(AnswerCheck.difference(new ReferenceAnswer(List.of("k", "m"), List.of()), result))
                .startsWith("columns [k, n]");
        assertThat(AnswerCheck.same(1.0, 1.0 + 1e-12)).isTrue();
        assertThat(AnswerCheck.same(1.0, 1.0001)).isFalse();
        assertThat(AnswerCheck.same(null, 0L)).isFalse();
        assertThat(AnswerCheck.same(Double.NaN, Double.NaN)).as("NaN is the same NaN").isTrue();
        assertThat(AnswerCheck.same(Double.NaN, 1.0)).isFalse();
        // SQL's names of a planned text, which two columns may share, replace the result's own.
        assertThat(AnswerCheck.difference(new ReferenceAnswer(List.of("k", "k"), List.of(Arrays.asList(1L, 10L),
                Arrays.asList(2L, 21L))), result, List.of("k", "k"))).isNull();
    }

    @Test
    void mismatchesAndErrorsAreMarkedInEveryReport() {
        final Timings t = Timings.ofNanos(new long[] {2_000_000, 4_000_000, 3_000_000});
        final List<CellResult> cells = List.of(
                new CellResult("q4", ClusterKind.EMBEDDED, TWO, Strategy.SHUFFLE_HASH, RuntimeFilterMode.GLOBAL, t, t, 10,
                        1000, 5, 500, 0, 2, 0, 0, 0,
                        1 << 20, 1 << 28, 1.5, "shuffle_hash", CellResult.Answer.OK, ""),
                new CellResult("q4", ClusterKind.EMBEDDED, TWO, Strategy.COLOCATE, RuntimeFilterMode.GLOBAL, t, t, 0, 10,
                        15, 1500, 4, 0, 100, 60, 3, 1 << 20,
                        1 << 28, 1.5, "colocate", CellResult.Answer.MISMATCH, "row 0 column n: Sluice 2, reference 1"),
                new CellResult("q4", ClusterKind.EMBEDDED, TWO, Strategy.BROADCAST, RuntimeFilterMode.GLOBAL, null, t, 0,
                        0, 0, 0, 0, 0, 0, 0, 0, 0, -1,
                        Double.NaN, "", CellResult.Answer.ERROR, "IllegalStateException: CN 1 stopped answering"));
        final BenchSpec spec = new BenchSpec(0.1, List.of(new TpchTextQuery(4)), List.of(TWO),
                List.of(Strategy.SHUFFLE_HASH, Strategy.COLOCATE, Strategy.BROADCAST), 3, 0, true,
                Session.Network.IPC);
        final BenchReport report = new BenchReport(spec, cells, "2025-01-01T00:00:00Z", "2 processors", 12.5,
                "peak RSS 1 MiB");
        assertThat(report.failures()).hasSize(2);
        assertThat(report.bytesVsShuffleHash(cells.get(1))).isEqualTo(0.01);
        assertThat(report.bytesVsShuffleHash(cells.get(2))).isNaN();

        final String summary = BenchSummary.of(report);
        assertThat(summary).contains("**ANSWERS DIFFER OR QUERIES FAILED in 2 of 3 cells**")
                .contains("- **MISMATCH** q4 2x1 colocate: row 0 column n: Sluice 2, reference 1")
                .contains("- **ERROR** q4 2x1 broadcast: IllegalStateException: CN 1 stopped answering")
                // Runs of 2, 3 and 4 ms: median 3, spread (4 - 2) / 2 / 3.
                .contains("| q4 | 3.0 ±33% | 3.0 ±33% (1.00x) | 3.0 ±33% (1.00x) **MISMATCH** | **ERROR** |")
                .contains("| geometric mean | | 1.00x | 1.00x | - |");
        final String csv = BenchCsv.of(report);
        assertThat(csv.split("\r\n")).hasSize(4);
        assertThat(csv).contains(",MISMATCH,row 0 column n: Sluice 2, reference 1\r\n".replace(
                "row 0 column n: Sluice 2, reference 1", "\"row 0 column n: Sluice 2, reference 1\""));
        assertThat(csv.split("\r\n")[3]).startsWith("q4,embedded,2x1,2,1,broadcast,global,3,0,,,,,,,3.000,2.000,4.000,,");
        assertThat(t.medianMs()).isEqualTo(3.0);
        assertThat(t.minMs()).isEqualTo(2.0);
        assertThat(t.maxMs()).isEqualTo(4.0);
        assertThat(t.p99Ms()).isBetween(3.99, 4.01);

        // The charts leave the failed cell out instead of failing the whole report.
        assertThat(BenchCharts.timeChart(report, ClusterKind.EMBEDDED, TWO)).isNotNull();
    }

    @Test
    void progressPrintsALinePerTenthWhenNotATerminal() {
        final StringWriter text = new StringWriter();
        final AtomicLong now = new AtomicLong();
        final BenchProgress progress = new BenchProgress(new PrintWriter(text), false, now::get, 20);
        progress.cell("q4 2x1 colocate");
        for (int i = 0; i < 20; i++) {
            now.addAndGet(1_000_000_000L);
            progress.run();
            if (i == 4) {
                progress.message("MISMATCH q4 2x1 colocate (run 5): row 0");
            }
        }
        progress.close();
        final List<String> lines = text.toString().lines().toList();
        assertThat(lines).hasSize(11);
        assertThat(lines.get(0)).startsWith("bench [##").contains(" 10% 2/20 runs 0:02 ETA 0:18  q4 2x1 colocate");
        assertThat(lines).contains("MISMATCH q4 2x1 colocate (run 5): row 0");
        assertThat(lines.get(10)).isEqualTo("bench [########################] 100% 20/20 runs 0:20");
    }

    @Test
    void cellsUnderSeveralRuntimeFilterModesAreComparedSideBySide() {
        final Timings slow = Timings.ofNanos(new long[] {4_000_000, 4_000_000, 4_000_000});
        final Timings fast = Timings.ofNanos(new long[] {1_000_000, 1_000_000, 1_000_000});
        final List<CellResult> cells = List.of(
                new CellResult("q4", ClusterKind.EMBEDDED, TWO, Strategy.SHUFFLE_HASH, RuntimeFilterMode.OFF, slow, null,
                        10, 4096, 5, 500, 0, 2, 0, 0, 0, 1 << 20, 1 << 28, 1.5, "shuffle_hash", CellResult.Answer.OK, ""),
                new CellResult("q4", ClusterKind.EMBEDDED, TWO, Strategy.SHUFFLE_HASH, RuntimeFilterMode.GLOBAL, fast,
                        null, 2, 1024, 5, 500, 0, 2, 100, 80, 3, 1 << 20, 1 << 28, 1.5, "shuffle_hash", CellResult.Answer.OK,
                        ""));
        final BenchSpec spec = new BenchSpec(0.1, List.of(new TpchTextQuery(4)), List.of(TWO), List.of(Strategy.SHUFFLE_HASH),
                3, 0, false, Session.Network.IPC, List.of(ClusterKind.EMBEDDED),
                List.of(RuntimeFilterMode.OFF, RuntimeFilterMode.GLOBAL));
        assertThat(spec.cellCount()).isEqualTo(2);
        final BenchReport report = new BenchReport(spec, cells, "2026-01-01T00:00:00Z", "test", 1, "peak RSS 1 MiB");
        assertThat(report.cell("q4", ClusterKind.EMBEDDED, TWO, Strategy.SHUFFLE_HASH)).isSameAs(cells.get(0));
        assertThat(BenchSummary.of(report)).contains("## Runtime filters on 2x1")
                .contains("| q4 | shuffle-hash | 4.0 (4.0-4.0) | 1.0 (1.0-1.0) | 0.25x | 0 / 80 | 0 / 3 |")
                .contains("| geometric mean | | | | 0.25x |");
        assertThat(BenchCsv.of(report).split("\r\n")[2]).startsWith("q4,embedded,2x1,2,1,shuffle-hash,global,3,0,1.000");
    }
}
