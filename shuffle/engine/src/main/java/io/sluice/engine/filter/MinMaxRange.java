package io.sluice.engine.filter;

/**
 * The smallest and largest build key of an integer key: a probe key outside cannot match, and a
 * probe block whose zonemap {@code [min, max]} does not meet the range is skipped unread.
 */
public record MinMaxRange(long min, long max) {
    public MinMaxRange {
        if (min > max) {
            throw new IllegalArgumentException("a key range needs min <= max, got [" + min + ", " + max + "]");
        }
    }

    /** Whether a key lies inside. */
    public boolean contains(final long key) {
        return key >= min && key <= max;
    }

    /** Whether some key in {@code [low, high]} lies inside. */
    public boolean overlaps(final long low, final long high) {
        return low <= max && high >= min;
    }

    /** The smallest range holding both. */
    public MinMaxRange union(final MinMaxRange other) {
        return new MinMaxRange(Math.min(min, other.min), Math.max(max, other.max));
    }
}
