package io.sluice.transport;

import java.util.concurrent.TimeUnit;

/**
 * Writes a default the way a {@code sluice.*} system property takes it (Agrona's {@code SystemUtil}
 * reads {@code 200ms}, {@code 3s}, {@code 16m}), so the property tables show values one can type.
 */
public final class PropertyValues {
    private PropertyValues() {
    }

    /**
     * A duration in the largest unit that divides it: {@code 3s}, {@code 200ms}, {@code 50us} or {@code 7ns}.
     *
     * @param nanos the duration in nanoseconds, 0 or more
     * @return the duration with its unit
     */
    public static String duration(final long nanos) {
        if (nanos != 0 && nanos % TimeUnit.SECONDS.toNanos(1) == 0) {
            return TimeUnit.NANOSECONDS.toSeconds(nanos) + "s";
        }
        if (nanos != 0 && nanos % TimeUnit.MILLISECONDS.toNanos(1) == 0) {
            return TimeUnit.NANOSECONDS.toMillis(nanos) + "ms";
        }
        if (nanos != 0 && nanos % TimeUnit.MICROSECONDS.toNanos(1) == 0) {
            return TimeUnit.NANOSECONDS.toMicros(nanos) + "us";
        }
        return nanos + "ns";
    }

    /**
     * A size in the largest binary unit that divides it: {@code 16m}, {@code 512k} or {@code 1408}.
     *
     * @param bytes the size in bytes, 0 or more
     * @return the size with {@code g}, {@code m} or {@code k}, or the bare number of bytes
     */
    public static String size(final long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "g";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "k";
        }
        return Long.toString(bytes);
    }
}
