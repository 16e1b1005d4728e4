package io.sluice.engine.filter;

import java.util.Locale;

/** Which runtime filters a query makes (Impala's RUNTIME_FILTER_MODE). */
public enum RuntimeFilterMode {
    /** None. */
    OFF,
    /** Only filters that need no merge: {@link FilterScope#LOCAL} and {@link FilterScope#PER_BUCKET}. */
    LOCAL,
    /** Every filter, {@link FilterScope#GLOBAL} ones merged over the buckets of every CN. */
    GLOBAL;

    /** Whether a filter of this scope is made. */
    public boolean allows(final FilterScope scope) {
        return this == GLOBAL || (this == LOCAL && scope != FilterScope.GLOBAL);
    }

    /** The name on the command line. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code off}, {@code local} or {@code global}; the error lists them. */
    public static RuntimeFilterMode parse(final String text) {
        if (text != null) {
            for (final RuntimeFilterMode m : values()) {
                if (m.cliName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return m;
                }
            }
        }
        throw new IllegalArgumentException("runtime filter mode '" + text + "' is not one of off, local, global");
    }
}
