package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query --stats-json} counts the blocks (and their bytes) that went to other CNs as
 * stored, in total and per exchange; a range shuffle without colocated scans sends some.
 */
class StatsJsonStoredBlocksTest {
    @TempDir
    static Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void theStatsCountTheBlocksSentStoredInTotalAndPerExchange() throws Exception {
        final Path storeDir = dir.resolve("store");
        final Store store = Store.create(storeDir);
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                assertThat(ignored.rowCount()).isPositive();
            }
        }
        final Path json = dir.resolve("stats.json");
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--cn", "3", "--cores", "2", "--strategy", "shuffle-range", "--stats-json", json.toString(),
                "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final Map<String, Object> stats = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        final long stored = number(stats.get("blocks_sent_stored"));
        assertThat(stored).isPositive();
        assertThat(number(stats.get("bytes_sent_stored"))).isPositive()
                .isLessThanOrEqualTo(number(stats.get("bytes_remote")));
        final List<Map<String, Object>> exchanges = (List<Map<String, Object>>) stats.get("exchanges");
        assertThat(exchanges).allSatisfy(e -> assertThat(e).containsKeys("blocks_sent_stored", "bytes_sent_stored"));
        assertThat(exchanges.stream().mapToLong(e -> number(e.get("blocks_sent_stored"))).sum())
                .isEqualTo(stored);
    }

    private static long number(final Object json) {
        return Long.parseLong(((MiniJson.Num) json).text());
    }
}
