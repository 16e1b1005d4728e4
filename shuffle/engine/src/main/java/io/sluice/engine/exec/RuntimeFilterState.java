package io.sluice.engine.exec;

import java.util.Locale;

/** Where a runtime filter stands on one CN, as the stats report it. */
public enum RuntimeFilterState {
    /** Its build has not delivered it yet. */
    PENDING,
    /** It arrived before the probe scan started and is applied. */
    APPLIED,
    /** It arrived after the probe scan stopped waiting; it applies to the blocks read since. */
    LATE,
    /** It rejected too few of the first rows it saw and passes every row since. */
    DISABLED,
    /** The probe scan finished before it came. */
    NOT_ARRIVED,
    /** Its partials were too large for a control message: no CN applies it. */
    DROPPED;

    /** The name the stats use: lower case with dashes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The state of a label, for decoding. */
    public static RuntimeFilterState ofLabel(final String label) {
        for (final RuntimeFilterState s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("runtime filter state '" + label + "' is not one of pending, applied, late,"
                + " disabled, not-arrived, dropped");
    }
}
