package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store whose block files live elsewhere: its tables open them through the store's {@link BlockFileSource}. */
class BlockFileSourceTest {
    @TempDir
    Path dir;

    @Test
    void tablesOpenTheirBlockFilesThroughTheStoresSource() throws Exception {
        final Path written = dir.resolve("written");
        try (TableWriter writer = Store.create(written).createTable("t", Schema.parse("k:int64"), null)) {
            for (int i = 0; i < 10_000; i++) {
                writer.column(0).appendLong(i);
                writer.endRow();
            }
            writer.finish().close();
        }
        // Only the manifest and the zonemap index stay; the block files move away.
        final Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        final Path dataDir = TableManifest.read(written.resolve("t")).dataDir(written.resolve("t"));
        for (int b = 0; b < 2; b++) {
            Files.move(dataDir.resolve(TableWriter.blockFileName(b)), elsewhere.resolve(TableWriter.blockFileName(b)));
        }
        final List<Integer> opened = new ArrayList<>();
        final BlockFileSource source = (table, block, verified) -> {
            opened.add(block);
            return BlockFile.open(elsewhere.resolve(table.blockPath(block).getFileName()), block, verified);
        };
        try (Table table = Store.open(written, new BlockFileCache(16), source).table("t")) {
            long sum = 0;
            for (int b = 0; b < table.blockCount(); b++) {
                final LongVector k = (LongVector) table.readBlock(b).column(0);
                for (int r = 0; r < k.rowCount(); r++) {
                    sum += k.get(r);
                }
            }
            assertThat(sum).isEqualTo(9_999L * 10_000 / 2);
        }
        assertThat(opened).containsExactly(0, 1);
    }
}
