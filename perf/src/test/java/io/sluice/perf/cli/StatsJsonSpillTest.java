package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.MemoryProperty;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql --stats-json} has the bytes the query spilled, in total and per operator with its peak:
 * a join over a budget too small for its build shows its build's spill, and the same query unbounded none.
 */
class StatsJsonSpillTest {
    @TempDir
    static Path dir;

    @AfterEach
    void clearProperties() {
        System.clearProperty(MemoryProperty.QUERY_MAX.key());
        System.clearProperty(MemoryProperty.SPILL_DIR.key());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theStatsHaveEachOperatorsPeakAndSpilledBytes() throws Exception {
        final Path storeDir = dir.resolve("store");
        final Store store = Store.create(storeDir);
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS)) {
            try (Table loaded = TpchLoader.load(store, t, 0.01, rows -> { })) {
                assertThat(loaded.rowCount()).isPositive();
            }
        }
        final String sql = "SELECT o_orderpriority, count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
                + " GROUP BY o_orderpriority ORDER BY o_orderpriority";
        System.setProperty(MemoryProperty.SPILL_DIR.key(), dir.resolve("spill").toString());
        final Map<String, Object> unbounded = run(storeDir, sql);
        assertThat(number(unbounded.get("spilled_bytes"))).isZero();
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "64k");
        final Map<String, Object> spilled = run(storeDir, sql);
        final List<Map<String, Object>> memory = (List<Map<String, Object>>) spilled.get("memory");
        final Map<String, Object> build = memory.stream()
                .filter(m -> ((String) m.get("operator")).startsWith("hash join build")).findFirst().orElseThrow();
        assertThat(number(build.get("spilled_bytes"))).isPositive();
        assertThat(number(build.get("peak_bytes"))).isPositive().isLessThanOrEqualTo(64 * 1024);
        assertThat(number(spilled.get("spilled_bytes")))
                .isEqualTo(memory.stream().mapToLong(m -> number(m.get("spilled_bytes"))).sum());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> run(final Path storeDir, final String sql) throws Exception {
        final Path json = dir.resolve("stats.json");
        final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), sql, "--cores", "2", "--format", "csv",
                "--stats-json", json.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return (Map<String, Object>) MiniJson.parse(Files.readString(json));
    }

    private static long number(final Object json) {
        return Long.parseLong(((MiniJson.Num) json).text());
    }
}
