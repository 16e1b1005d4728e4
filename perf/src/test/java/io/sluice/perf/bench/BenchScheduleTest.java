package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.plan.Strategy;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order in which {@code sluice bench} runs its contestants, read from the progress display
 * (drawn at every step by a clock that jumps a second per reading): a warm-up pass of every
 * contestant, DuckDB's reference answer, then rounds in which DuckDB and each strategy run once,
 * the order turning by one place per round; and the number of runs it announced is the number it
 * made.
 */
class BenchScheduleTest {
    private static final Pattern LABEL = Pattern.compile("runs \\d+:\\d\\d(?: ETA \\d+:\\d\\d)?  (\\S.*?)\\s*$");

    @TempDir
    Path dir;

    @Test
    void contestantsTakeTurnsInAnOrderThatTurnsEachRound() {
        final Store store = Store.create(dir.resolve("sf0.01"));
        final BenchSpec spec = new BenchSpec(0.01, List.of(new TpchTextQuery(4)), List.of(new Topology(1, 1)),
                List.of(Strategy.BROADCAST, Strategy.COLOCATE), 2, 1, true, Session.Network.IPC,
                List.of(ClusterKind.EMBEDDED), List.of(RuntimeFilterConfig.defaults().mode()));
        for (final String table : spec.tables()) {
            TpchLoader.load(store, TpchTable.of(table), 0.01, rows -> { }).close();
        }
        final StringWriter err = new StringWriter();
        final AtomicLong clock = new AtomicLong();
        final long total = BenchRunner.totalRuns(spec);
        final BenchProgress progress = new BenchProgress(new PrintWriter(err), true,
                () -> clock.addAndGet(1_000_000_000L), total);
        final List<CellResult> cells = new BenchRunner(store, spec, progress).run();
        progress.close();

        assertThat(cells).hasSize(2).allMatch(c -> c.answer() == CellResult.Answer.OK && c.sluice().runs() == 2);
        final String duck = "q4 1x1 duckdb";
        final String broadcast = "q4 1x1 broadcast";
        final String colocate = "q4 1x1 colocate";
        assertThat(shownLabels(err.toString())).containsExactly(
                duck + " (warm-up)", broadcast + " (warm-up)", colocate + " (warm-up)",
                duck + " (reference answer)",
                duck, broadcast, colocate, // warm-up round
                broadcast, colocate, duck, // timed
                colocate, duck, broadcast); // timed
        assertThat(err.toString()).contains(total + "/" + total + " runs");
        assertThat(total).isEqualTo(3 + 1 + 3 * 3);
    }

    /** The labels the progress bar showed, each once per stretch in which it stayed the same. */
    private static List<String> shownLabels(final String display) {
        final List<String> labels = new ArrayList<>();
        for (final String drawn : display.split("\r")) {
            final Matcher m = LABEL.matcher(drawn);
            if (m.find() && (labels.isEmpty() || !labels.get(labels.size() - 1).equals(m.group(1)))) {
                labels.add(m.group(1));
            }
        }
        return labels;
    }
}
