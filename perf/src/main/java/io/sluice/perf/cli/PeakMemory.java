package io.sluice.perf.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        final List<String> lines;
        try {
            lines = Files.readAllLines(status);
        } catch (final IOException | SecurityException e) {
            return -1;
        }
        for (final String line : lines) {
            if (line.startsWith("VmHWM:")) {
                final String[] parts = line.substring(6).trim().split("\\s+");
                try {
                    final long value = Long.parseLong(parts[0]);
                    return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value;
                } catch (final NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
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
