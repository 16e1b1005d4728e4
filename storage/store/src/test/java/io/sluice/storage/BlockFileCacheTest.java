package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache bounds the block files a process keeps open and mapped. */
class BlockFileCacheTest {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final Path FDS = Path.of("/proc/self/fd");

    @TempDir
    Path dir;

    long mappingsUnder(final Path path) throws IOException {
        return Files.readAllLines(MAPS).stream().filter(line -> line.contains(path.toString())).count();
    }

    long descriptorsUnder(final Path path) throws IOException {
        long n = 0;
        try (Stream<Path> fds = Files.list(FDS)) {
            for (final Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith(path.toString())) {
                        n++;
                    }
                } catch (final IOException e) {
                    // a descriptor closed while listing
                }
            }
        }
        return n;
    }

    @Test
    void aScanOfManyBlocksKeepsAtMostCapacityFilesOpenAndMapped() throws Exception {
        assumeTrue(Files.isReadable(MAPS) && Files.isDirectory(FDS), "needs /proc/self");
        final Store store = Store.create(dir);
        try (TableWriter writer = store.write(TableSpec.of("t", Schema.parse("k:int64")).withBlockRows(10))) {
            for (int i = 0; i < 1000; i++) {
                writer.column(0).appendLong(i);
                writer.endRow();
            }
            writer.finish().close();
        }
        final BlockFileCache cache = new BlockFileCache(8);
        long sum = 0;
        try (Table table = Table.open(dir.resolve("t"), cache)) {
            assertThat(table.blockCount()).isEqualTo(100);
            for (int b = 0; b < table.blockCount(); b++) {
                final Block block = table.readBlock(b);
                final LongVector k = (LongVector) block.column(0);
                for (int r = 0; r < block.rowCount(); r++) {
                    sum += k.get(r);
                }
                assertThat(cache.openFiles()).isLessThanOrEqualTo(8);
            }
            assertThat(mappingsUnder(dir)).isLessThanOrEqualTo(8);
            assertThat(descriptorsUnder(dir)).isLessThanOrEqualTo(8);
            assertThat(cache.filesOpened()).isEqualTo(100);
        }
        assertThat(sum).isEqualTo(999L * 1000 / 2);
        assertThat(cache.openFiles()).isZero();
        assertThat(mappingsUnder(dir)).isZero();
        assertThat(descriptorsUnder(dir)).isZero();
    }
}
