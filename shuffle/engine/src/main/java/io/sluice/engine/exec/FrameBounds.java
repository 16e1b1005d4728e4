package io.sluice.engine.exec;

/**
 * The first and last row of each row's {@link WindowFrame}, as positions in window order (rows
 * sorted by partition, then order keys); a frame with {@code last < first} is empty. Frames never
 * leave their partition, and both ends only move forward from one row to the next, which is what
 * lets {@link FrameAggregation} slide over them.
 *
 * <p>A RANGE offset compares values of the window's one order key: {@code n PRECEDING} starts at the
 * first row whose key is at least the row's key minus {@code n} (plus, for a descending key), and so
 * on. Rows whose key is NULL are peers of each other and of no other row: an offset bound of a NULL
 * row is the edge of its NULL peers, and no other row's offset frame reaches them (as DuckDB and
 * PostgreSQL frame them).
 */
record FrameBounds(int[] first, int[] last) {
    /**
     * @param partitionStart whether each row in window order starts its partition
     * @param peerStart      whether each row starts its peer group (equal partition and order keys)
     * @param keys           the order key's values in window order, read only for a RANGE offset
     * @param keyNull        whether each order key value is NULL, null when none is
     * @param descending     whether the order key is descending
     */
    static FrameBounds of(final WindowFrame frame, final int total, final boolean[] partitionStart,
                          final boolean[] peerStart, final long[] keys, final boolean[] keyNull,
                          final boolean descending) {
        final int[] first = new int[total];
        final int[] last = new int[total];
        final boolean range = frame.unit() == WindowFrame.Unit.RANGE;
        int ps = 0;
        while (ps < total) {
            int pe = ps;
            while (pe + 1 < total && !partitionStart[pe + 1]) {
                pe++;
            }
            // The partition's non-NULL keys lie together, NULLs first or last.
            int keyFirst = ps;
            int keyLast = pe;
            if (keyNull != null) {
                while (keyFirst <= pe && keyNull[keyFirst]) {
                    keyFirst++;
                }
                while (keyLast >= keyFirst && keyNull[keyLast]) {
                    keyLast--;
                }
            }
            int startCursor = keyFirst;
            int endCursor = keyFirst;
            int peerFirst = ps;
            int peerLast = ps - 1;
            for (int i = ps; i <= pe; i++) {
                if (i > peerLast) {
                    peerFirst = i;
                    peerLast = i;
                    while (peerLast + 1 <= pe && !peerStart[peerLast + 1]) {
                        peerLast++;
                    }
                }
                final FrameBound start = frame.start();
                final FrameBound end = frame.end();
                if (!range) {
                    first[i] = switch (start.kind()) {
                        case UNBOUNDED_PRECEDING -> ps;
                        case PRECEDING -> (int) Math.max(ps, (long) i - start.offset());
                        case CURRENT_ROW -> i;
                        case FOLLOWING -> (int) Math.min(pe + 1L, i + start.offset());
                        case UNBOUNDED_FOLLOWING -> throw new IllegalStateException(frame.toString());
                    };
                    last[i] = switch (end.kind()) {
                        case UNBOUNDED_FOLLOWING -> pe;
                        case FOLLOWING -> (int) Math.min(pe, i + end.offset());
                        case CURRENT_ROW -> i;
                        case PRECEDING -> (int) Math.max(ps - 1L, (long) i - end.offset());
                        case UNBOUNDED_PRECEDING -> throw new IllegalStateException(frame.toString());
                    };
                    continue;
                }
                final boolean isNull = keyNull != null && keyNull[i];
                switch (start.kind()) {
                    case UNBOUNDED_PRECEDING -> first[i] = ps;
                    case CURRENT_ROW -> first[i] = peerFirst;
                    default -> {
                        if (isNull) {
                            first[i] = peerFirst;
                        } else {
                            final long target = shift(keys[i], start.offset(),
                                    start.kind() == FrameBound.Kind.FOLLOWING, descending);
                            while (startCursor <= keyLast && before(keys[startCursor], target, descending)) {
                                startCursor++;
                            }
                            first[i] = startCursor;
                        }
                    }
                }
                switch (end.kind()) {
                    case UNBOUNDED_FOLLOWING -> last[i] = pe;
                    case CURRENT_ROW -> last[i] = peerLast;
                    default -> {
                        if (isNull) {
                            last[i] = peerLast;
                        } else {
                            final long target = shift(keys[i], end.offset(),
                                    end.kind() == FrameBound.Kind.FOLLOWING, descending);
                            while (endCursor <= keyLast && !before(target, keys[endCursor], descending)) {
                                endCursor++;
                            }
                            last[i] = endCursor - 1;
                        }
                    }
                }
            }
            ps = pe + 1;
        }
        return new FrameBounds(first, last);
    }

    /** The key {@code offset} ahead of ({@code following}) or behind {@code key} in window order, saturated. */
    private static long shift(final long key, final long offset, final boolean following, final boolean descending) {
        final boolean up = following != descending;
        final long shifted = up ? key + offset : key - offset;
        if (up ? shifted < key : shifted > key) {
            return up ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return shifted;
    }

    /** Whether key {@code a} comes before {@code b} in window order. */
    private static boolean before(final long a, final long b, final boolean descending) {
        return descending ? a > b : a < b;
    }
}
