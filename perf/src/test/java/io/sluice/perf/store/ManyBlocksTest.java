package io.sluice.perf.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Schema;
import io.sluice.perf.cluster.JavaProcess;
import io.sluice.storage.BlockFileCache;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table of 100,000 one-row blocks, queried in a JVM whose file descriptor limit is 1024: a scan
 * opens block files as it reads them and closes them after, so it needs far fewer descriptors (and
 * memory mappings) than the table has blocks. The same JVM made to keep 2,000 files open fails,
 * which shows the limit is real.
 */
class ManyBlocksTest {
    private static final int BLOCKS = 100_000;
    private static final String LIMIT = "1024";

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeTable() {
        final Store store = Store.create(dir);
        try (TableWriter writer = store.write(TableSpec.of("t", Schema.parse("k:int64")).withBlockRows(1))) {
            for (long k = 0; k < BLOCKS; k++) {
                writer.column(0).appendLong(k);
                writer.endRow();
            }
            try (Table table = writer.finish()) {
                assertThat(table.blockCount()).isEqualTo(BLOCKS);
            }
        }
    }

    /** {@link ScanMain} in a JVM started by bash after {@code ulimit -n 1024}. */
    static JavaProcess scanUnderLimit(final String... jvmArgs) {
        final List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + LIMIT + " && exec \"$0\" \"$@\""));
        command.addAll(JavaProcess.of(ScanMain.class).jvmArgs(jvmArgs).args(dir.toString(), "t").commandLine());
        return JavaProcess.start(new ProcessBuilder(command));
    }

    @Test
    void aQueryOverAHundredThousandBlocksRunsUnderADescriptorLimitOf1024() {
        try (JavaProcess scan = scanUnderLimit("-Xmx512m")) {
            final String result = scan.awaitLine(l -> l.startsWith("rows=") || l.startsWith("failed"),
                    Duration.ofSeconds(300));
            // 0 + 1 + ... + 99,999
            assertThat(result).startsWith("rows=100000 sum=4999950000 opened=100000");
            assertThat(scan.stdout().get(0)).isEqualTo("cache capacity " + Integer.parseInt(LIMIT) / 2);
            assertThat(scan.awaitExit(Duration.ofSeconds(60))).isZero();
        }
    }

    @Test
    void keepingMoreFilesOpenThanTheLimitAllowsFails() {
        try (JavaProcess scan = scanUnderLimit("-Xmx512m", "-D" + BlockFileCache.CAPACITY_PROPERTY + "=2000")) {
            final String result = scan.awaitLine(l -> l.startsWith("rows=") || l.startsWith("failed"),
                    Duration.ofSeconds(300));
            assertThat(result).startsWith("failed: ").contains("Too many open files");
            assertThat(scan.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
        }
    }
}
