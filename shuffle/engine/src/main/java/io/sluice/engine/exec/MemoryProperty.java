package io.sluice.engine.exec;

/**
 * The system properties of memory accounting ({@link MemoryPool#shared()}, {@link QueryMemory}), each with
 * its default and meaning: the list the generated property reference is made from.
 */
public enum MemoryProperty {
    POOL("sluice.memory.pool", "80%",
            "Memory the operators of all running queries of one process (one CN) may hold: bytes with an optional"
                    + " k, m or g, or a percentage of the maximum heap."),
    QUERY_MAX("sluice.memory.query.max", "100%",
            "Memory one query's operators may hold on one CN (hash tables, group tables, rows kept to sort or to"
                    + " window): bytes with an optional k, m or g, or a percentage of the pool. Past it the query fails"
                    + " naming the operator, or, with spilling on, its sorts, group tables and hash join builds go"
                    + " on on disk; the CN keeps serving."),
    SPILL("sluice.spill", "on",
            "Whether sorts, group tables and hash join builds past the query's memory budget write their rows"
                    + " to disk and go on (on), or fail the query naming the operator (off)."),
    SPILL_DIR("sluice.spill.dir", "<java.io.tmpdir>/sluice-spill",
            "Where spill files go: a folder per process (named by its pid), one per query inside it, removed when"
                    + " the query ends, fails or is cancelled; folders of processes no longer alive are removed when"
                    + " a process first spills.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    MemoryProperty(final String key, final String defaultValue, final String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The system property's name. */
    public String key() {
        return key;
    }

    /** The value used when the property is not set, written as one would set it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property sets. */
    public String meaning() {
        return meaning;
    }

    /** The value in force, as set or the default. */
    String current() {
        return System.getProperty(key, defaultValue);
    }

    /**
     * Whether the switch is on: {@code on}/{@code true} or {@code off}/{@code false}.
     *
     * @throws IllegalArgumentException naming the property and the accepted values
     */
    boolean on() {
        final String text = current().trim().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException("-D" + key + "=" + System.getProperty(key)
                    + " is not valid: use on or off");
        };
    }

    /** The folder the property names; by default {@code sluice-spill} under {@code java.io.tmpdir}. */
    java.nio.file.Path path() {
        final String text = System.getProperty(key);
        return text == null || text.isBlank()
                ? java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "sluice-spill")
                : java.nio.file.Path.of(text.trim());
    }

    /**
     * The property's value in bytes: a size ({@code 512m}, {@code 2g}, {@code 1048576}) or a percentage of
     * {@code whole}.
     *
     * @throws IllegalArgumentException naming the property and the accepted forms
     */
    long bytes(final long whole) {
        final String text = current().trim().toLowerCase(java.util.Locale.ROOT);
        try {
            final long value;
            if (text.endsWith("%")) {
                final double percent = Double.parseDouble(text.substring(0, text.length() - 1));
                if (!(percent > 0) || percent > 100) {
                    throw new NumberFormatException();
                }
                value = (long) (whole * percent / 100);
            } else {
                final char unit = text.isEmpty() ? ' ' : text.charAt(text.length() - 1);
                final long scale = unit == 'k' ? 1L << 10 : unit == 'm' ? 1L << 20 : unit == 'g' ? 1L << 30 : 1;
                value = Math.multiplyExact(Long.parseLong(scale == 1 ? text : text.substring(0, text.length() - 1)),
                        scale);
            }
            if (value <= 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (final NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("-D" + key + "=" + System.getProperty(key) + " is not valid: use bytes"
                    + " with an optional k, m or g (e.g. 512m) or a percentage in (0, 100] (e.g. 50%)");
        }
    }
}
