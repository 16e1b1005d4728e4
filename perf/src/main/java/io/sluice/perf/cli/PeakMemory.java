package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ProcessMemory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;

/**
 * The process's peak memory: resident set high-water mark ({@code VmHWM} in
 * {@code /proc/self/status}) where Linux provides it, else the peak heap of the JVM's pools.
 */
final class PeakMemory {
    private PeakMemory() {
    }

    /** One phrase such as {@code peak RSS 812 MiB}, or {@code peak heap 300 MiB (VmHWM unavailable)}. */
    static String describe() {
        final long rss = peakRssBytes(Path.of("/proc/self/status"));
        if (rss >= 0) {
            return "peak RSS " + Sizes.mib(rss);
        }
        return "peak heap " + Sizes.mib(peakHeapBytes()) + " (VmHWM unavailable)";
    }

    /** VmHWM from a {@code /proc/<pid>/status} file in bytes, or -1 if it cannot be read. */
    static long peakRssBytes(final Path status) {
        return ProcessMemory.peakRssBytes(status);
    }

    private static long peakHeapBytes() {
        long sum = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
