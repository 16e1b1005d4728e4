package io.sluice.perf.cli;

import java.util.Locale;

/** Human-readable byte sizes and durations for command output. */
final class Sizes {
    private Sizes() {
    }

    /** Bytes in MiB with no decimals, e.g. {@code 812 MiB}. */
    static String mib(final long bytes) {
        return Math.round(bytes / (1024.0 * 1024.0)) + " MiB";
    }

    /** Bytes in the largest unit that keeps the number at least 1, e.g. {@code 7.9 MiB}. */
    static String bytes(final long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        final String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes / 1024.0;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** Seconds as {@code m:ss}, or {@code h:mm:ss} from an hour on. */
    static String clock(final long seconds) {
        final long s = Math.max(0, seconds);
        return s >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** A rate with a k/M suffix, e.g. {@code 1.2M}. */
    static String count(final double value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", value / 1_000_000);
        }
        if (value >= 1_000) {
            return String.format(Locale.ROOT, "%.1fk", value / 1_000);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
