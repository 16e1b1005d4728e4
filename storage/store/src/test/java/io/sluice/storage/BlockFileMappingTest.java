package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.format.Block;
import io.sluice.format.BlockEncoder;
import io.sluice.format.LongVector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing many blocks must not keep their files mapped (a long gen would exhaust the map count). */
class BlockFileMappingTest {
    private static final Path MAPS = Path.of("/proc/self/maps");

    @TempDir
    Path dir;

    long mappingsUnder(final Path path) throws IOException {
        return Files.readAllLines(MAPS).stream().filter(line -> line.contains(path.toString())).count();
    }

    @Test
    void writtenBlocksAreUnmapped() throws Exception {
        assumeTrue(Files.isReadable(MAPS), "needs /proc/self/maps");
        final BlockEncoder encoder = new BlockEncoder();
        for (int i = 0; i < 200; i++) {
            BlockFile.write(dir.resolve("b" + i), Block.of(LongVector.ofInt64(new long[4096])), encoder);
        }
        final long deadline = System.nanoTime() + 10_000_000_000L;
        long mapped = mappingsUnder(dir);
        while (mapped > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            mapped = mappingsUnder(dir);
        }
        assertThat(mapped).as("block files still mapped after writing").isZero();
        assertThat(Files.size(dir.resolve("b0"))).isLessThan(40_000);
    }
}
