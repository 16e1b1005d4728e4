package io.sluice.perf.bench;

import java.util.Locale;

/** Where {@code sluice bench} runs its CNs ({@code --cluster}). */
public enum ClusterKind {
    /** CNs as groups of threads in this JVM, over the bench's {@code --network}: one runtime, no process boundary. */
    EMBEDDED,
    /** A coordinator in this JVM and one {@code sluice cn} process per CN, each with its own media driver, over UDP. */
    PROCESSES;

    /** The name on the command line and in reports. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code embedded} or {@code processes}; the error names both. */
    public static ClusterKind parse(final String text) {
        for (final ClusterKind k : values()) {
            if (k.cliName().equalsIgnoreCase(text.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("--cluster: '" + text + "' is not one of embedded, processes");
    }
}
