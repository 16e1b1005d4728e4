package io.sluice.engine.exec;

/**
 * One end of a {@link WindowFrame}: UNBOUNDED PRECEDING, {@code offset} PRECEDING, CURRENT ROW,
 * {@code offset} FOLLOWING or UNBOUNDED FOLLOWING. A ROWS offset counts rows; a RANGE offset is a
 * distance between order key values in the key's stored units (days for a date, unscaled units
 * for a decimal).
 */
public record FrameBound(Kind kind, long offset) {
    /** Where a bound lies relative to the current row. */
    public enum Kind {
        UNBOUNDED_PRECEDING,
        PRECEDING,
        CURRENT_ROW,
        FOLLOWING,
        UNBOUNDED_FOLLOWING;

        /** Whether a bound of this kind carries an offset. */
        public boolean hasOffset() {
            return this == PRECEDING || this == FOLLOWING;
        }
    }

    /** UNBOUNDED PRECEDING. */
    public static final FrameBound UNBOUNDED_PRECEDING = new FrameBound(Kind.UNBOUNDED_PRECEDING, 0);
    /** CURRENT ROW. */
    public static final FrameBound CURRENT_ROW = new FrameBound(Kind.CURRENT_ROW, 0);
    /** UNBOUNDED FOLLOWING. */
    public static final FrameBound UNBOUNDED_FOLLOWING = new FrameBound(Kind.UNBOUNDED_FOLLOWING, 0);

    public FrameBound {
        if (kind == null) {
            throw new IllegalArgumentException("a frame bound needs a kind");
        }
        if (kind.hasOffset() ? offset < 0 : offset != 0) {
            throw new IllegalArgumentException(kind.hasOffset()
                    ? "a frame offset must be 0 or more, got " + offset + " " + kind
                    : kind + " takes no offset, got " + offset);
        }
    }

    /** {@code offset} PRECEDING. */
    public static FrameBound preceding(final long offset) {
        return new FrameBound(Kind.PRECEDING, offset);
    }

    /** {@code offset} FOLLOWING. */
    public static FrameBound following(final long offset) {
        return new FrameBound(Kind.FOLLOWING, offset);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
            case PRECEDING -> offset + " PRECEDING";
            case CURRENT_ROW -> "CURRENT ROW";
            case FOLLOWING -> offset + " FOLLOWING";
            case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
        };
    }
}
