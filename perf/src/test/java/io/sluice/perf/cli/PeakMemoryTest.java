package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeakMemoryTest {
    @TempDir
    Path dir;

    @Test
    void readsVmHwmInKilobytes() throws IOException {
        final Path status = Files.writeString(dir.resolve("status"),
                "Name:\tjava\nVmPeak:\t 9000000 kB\nVmHWM:\t  812345 kB\nVmRSS:\t  500000 kB\n");
        assertThat(PeakMemory.peakRssBytes(status)).isEqualTo(812_345L * 1024);
    }

    @Test
    void unreadableOrMissingIsMinusOne() throws IOException {
        assertThat(PeakMemory.peakRssBytes(dir.resolve("absent"))).isEqualTo(-1);
        assertThat(PeakMemory.peakRssBytes(Files.writeString(dir.resolve("s"), "Name:\tjava\n"))).isEqualTo(-1);
    }

    @Test
    void describesRssOrHeap() {
        assertThat(PeakMemory.describe()).matches("peak (RSS \\d+ MiB|heap \\d+ MiB \\(VmHWM unavailable\\))");
    }
}
