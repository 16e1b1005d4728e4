package io.sluice.dispatch.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This process's resident memory at its peak: {@code VmHWM} of {@code /proc/self/status} where Linux
 * provides it; what CNs report with their heartbeats and query results.
 */
public final class ProcessMemory {
    private static final Path SELF = Path.of("/proc/self/status");

    private ProcessMemory() {
    }

    /** The peak resident set of this process in bytes, or -1 where the system does not tell. */
    public static long peakRssBytes() {
        return peakRssBytes(SELF);
    }

    /** VmHWM from a {@code /proc/<pid>/status} file in bytes, or -1 if it cannot be read. */
    public static long peakRssBytes(final Path status) {
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
}
