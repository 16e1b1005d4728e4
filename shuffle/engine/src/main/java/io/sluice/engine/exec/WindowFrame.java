package io.sluice.engine.exec;

/**
 * The rows of its partition an aggregate window function reads for each row (ranking functions
 * ignore it): {@code ROWS|RANGE BETWEEN start AND end}. SQL's default frames are
 * {@link #RANGE_TO_CURRENT_ROW} with ORDER BY and {@link #PARTITION} without. A ROWS frame counts
 * rows in window order; a RANGE frame's CURRENT ROW takes the row's peers (equal order keys), and
 * its offsets are distances between values of the window's one order key.
 */
public record WindowFrame(Unit unit, FrameBound start, FrameBound end) {
    /** How a frame's bounds are measured. */
    public enum Unit {
        ROWS,
        RANGE
    }

    /** How {@link Window} computes a frame. */
    enum Shape {
        /** From the partition's start to the row and its peers: one running aggregate per peer group. */
        RUNNING_PEERS,
        /** From the partition's start to the row: one running aggregate per row. */
        RUNNING_ROWS,
        /** The whole partition: one aggregate per partition. */
        PARTITION,
        /** Any other frame: a sliding aggregate over each row's bounds ({@link FrameAggregation}). */
        SLIDING
    }

    /** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: up to the row and all its peers. */
    public static final WindowFrame RANGE_TO_CURRENT_ROW =
            new WindowFrame(Unit.RANGE, FrameBound.UNBOUNDED_PRECEDING, FrameBound.CURRENT_ROW);
    /** ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: up to the row itself, in window order. */
    public static final WindowFrame ROWS_TO_CURRENT_ROW =
            new WindowFrame(Unit.ROWS, FrameBound.UNBOUNDED_PRECEDING, FrameBound.CURRENT_ROW);
    /** RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING: the whole partition. */
    public static final WindowFrame PARTITION =
            new WindowFrame(Unit.RANGE, FrameBound.UNBOUNDED_PRECEDING, FrameBound.UNBOUNDED_FOLLOWING);

    public WindowFrame {
        if (unit == null || start == null || end == null) {
            throw new IllegalArgumentException("a window frame needs a unit and two bounds, got " + unit + ", "
                    + start + ", " + end);
        }
        if (start.kind() == FrameBound.Kind.UNBOUNDED_FOLLOWING) {
            throw new IllegalArgumentException("a window frame cannot start at UNBOUNDED FOLLOWING: " + sql(unit,
                    start, end));
        }
        if (end.kind() == FrameBound.Kind.UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("a window frame cannot end at UNBOUNDED PRECEDING: " + sql(unit,
                    start, end));
        }
    }

    /** {@code unit} BETWEEN {@code start} AND {@code end}. */
    public static WindowFrame of(final Unit unit, final FrameBound start, final FrameBound end) {
        return new WindowFrame(unit, start, end);
    }

    /** Whether a bound is an offset over the order key's values, which needs exactly one numeric or date key. */
    public boolean hasRangeOffset() {
        return unit == Unit.RANGE && (start.kind().hasOffset() || end.kind().hasOffset());
    }

    Shape shape() {
        if (start.kind() == FrameBound.Kind.UNBOUNDED_PRECEDING) {
            if (end.kind() == FrameBound.Kind.UNBOUNDED_FOLLOWING) {
                return Shape.PARTITION;
            }
            if (end.kind() == FrameBound.Kind.CURRENT_ROW) {
                return unit == Unit.RANGE ? Shape.RUNNING_PEERS : Shape.RUNNING_ROWS;
            }
        }
        return Shape.SLIDING;
    }

    @Override
    public String toString() {
        return sql(unit, start, end);
    }

    private static String sql(final Unit unit, final FrameBound start, final FrameBound end) {
        return unit + " BETWEEN " + start + " AND " + end;
    }
}
