package io.sluice.shuffle;

/**
 * Range bucketing in constant time per key, whatever the number of buckets: the key is clamped
 * into {@code [floor, last cut]}, the high bits of its offset from {@code floor} pick a slot, the
 * slot knows the bucket of its first key, and at most one cut point inside the slot corrects it by
 * one. About ten branch-free instructions per row where a binary search over 63 cut points takes
 * six dependent loads.
 *
 * <p>The table is built at the coarsest slot width that leaves at most one cut point inside each
 * slot, so it stays small (tens of slots for evenly spread cut points). Cut points bunched much
 * closer than their overall spread would need too many slots; then {@link #build} gives up and the
 * caller searches instead.
 *
 * <p>The table reaches past the first and last cut points by as many slots again on each side, so
 * that keys in the range the cut points were drawn from (the first and last buckets included) are
 * never clamped: Java 17 compiles a long {@code Math.max} as a branch, and clamping a third of the
 * keys (six buckets) mispredicted often enough to double the cost. Only outliers are clamped.
 *
 * <p>Works on signed keys: callers flip string prefix keys into signed order first. Offsets from
 * {@code floor} are unsigned, so cut points may span the whole 64-bit range.
 */
final class RangeSlotTable {
    /** Fewest slots a table may always use; larger bucket counts may use four slots per bucket. */
    static final int MIN_SLOT_LIMIT = 4096;

    /** Clamp floor: at or below the first cut point minus one (so that keys below it keep bucket 0). */
    private final long floor;
    /** Clamp ceiling: at or above the last cut point. */
    private final long last;
    private final int shift;
    /** Low {@code shift} bits: a key's offset inside its slot. */
    private final long mask;
    /** Bucket of each slot's first key. */
    private final int[] slotBuckets;
    /**
     * Per slot, the offset inside the slot of its one inner cut point, minus one; {@code mask} when
     * the slot has none. A key whose in-slot offset exceeds this value is at or past the cut.
     */
    private final long[] innerCuts;

    private RangeSlotTable(final long floor, final long last, final int shift, final int[] slotBuckets,
                           final long[] innerCuts) {
        this.floor = floor;
        this.last = last;
        this.shift = shift;
        this.mask = maskOf(shift);
        this.slotBuckets = slotBuckets;
        this.innerCuts = innerCuts;
    }

    private static long maskOf(final int shift) {
        return shift == 0 ? 0 : -1L >>> (64 - shift);
    }

    /**
     * The table for strictly increasing signed cut points (at least one), or null when no table of
     * at most {@code max(MIN_SLOT_LIMIT, 4 x buckets)} slots leaves one cut point per slot.
     */
    static RangeSlotTable build(final long[] cuts) {
        final long first = cuts[0];
        final long last = cuts[cuts.length - 1];
        final long floor = first == Long.MIN_VALUE ? first : first - 1;
        final long slotLimit = Math.max(MIN_SLOT_LIMIT, 4L * (cuts.length + 1));
        for (int shift = 63; shift >= 0; shift--) {
            final long slots = ((last - floor) >>> shift) + 1;
            if (slots > slotLimit) {
                return null;
            }
            if (atMostOneInnerCutPerSlot(cuts, floor, shift)) {
                // Whole slots added below and above keep cut points at the same in-slot offsets.
                final long extra = Math.min(slots, (slotLimit - slots) / 2);
                final long below = Math.min(extra, (floor - Long.MIN_VALUE) >>> shift);
                final long above = Math.min(extra, (Long.MAX_VALUE - last) >>> shift);
                return fill(cuts, floor - (below << shift), last + (above << shift), shift,
                        (int) (below + slots + above));
            }
        }
        return null;
    }

    /** A cut point at a slot's first key is counted in that slot's bucket; any other is "inner". */
    private static boolean atMostOneInnerCutPerSlot(final long[] cuts, final long floor, final int shift) {
        final long mask = maskOf(shift);
        long previousSlot = -1;
        for (final long cut : cuts) {
            final long offset = cut - floor;
            if ((offset & mask) == 0) {
                continue;
            }
            final long slot = offset >>> shift;
            if (slot == previousSlot) {
                return false;
            }
            previousSlot = slot;
        }
        return true;
    }

    /** Fills a table over {@code [floor, last]}, whose bounds lie a whole number of slots from the cut points'. */
    private static RangeSlotTable fill(final long[] cuts, final long floor, final long last, final int shift,
                                       final int slots) {
        final long mask = maskOf(shift);
        final int[] slotBuckets = new int[slots];
        final long[] innerCuts = new long[slots];
        int atOrBelow = 0;
        for (int s = 0; s < slots; s++) {
            // No overflow: s << shift <= last - floor (unsigned), so the start is within [floor, last].
            final long start = floor + ((long) s << shift);
            while (atOrBelow < cuts.length && cuts[atOrBelow] <= start) {
                atOrBelow++;
            }
            slotBuckets[s] = atOrBelow;
            innerCuts[s] = mask;
        }
        for (final long cut : cuts) {
            final long offset = cut - floor;
            if ((offset & mask) != 0) {
                innerCuts[(int) (offset >>> shift)] = (offset & mask) - 1;
            }
        }
        return new RangeSlotTable(floor, last, shift, slotBuckets, innerCuts);
    }

    /** Number of slots. */
    int slots() {
        return slotBuckets.length;
    }

    /** The bucket of one signed key. */
    int bucket(final long key) {
        final long offset = Math.min(Math.max(key, floor), last) - floor;
        final int slot = (int) (offset >>> shift);
        // Both terms lie in [0, mask], so the difference cannot overflow; its sign bit says "past the cut".
        return slotBuckets[slot] + (int) ((innerCuts[slot] - (offset & mask)) >>> 63);
    }

    /** Buckets of signed 64-bit keys. */
    void buckets(final long[] keys, final int rows, final int[] out) {
        final long lo = floor;
        final long hi = last;
        final int sh = shift;
        final long m = mask;
        final int[] base = slotBuckets;
        final long[] inner = innerCuts;
        for (int i = 0; i < rows; i++) {
            final long offset = Math.min(Math.max(keys[i], lo), hi) - lo;
            final int slot = (int) (offset >>> sh);
            out[i] = base[slot] + (int) ((inner[slot] - (offset & m)) >>> 63);
        }
    }

    /** Buckets of 32-bit keys. */
    void buckets(final int[] keys, final int rows, final int[] out) {
        final long lo = floor;
        final long hi = last;
        final int sh = shift;
        final long m = mask;
        final int[] base = slotBuckets;
        final long[] inner = innerCuts;
        for (int i = 0; i < rows; i++) {
            final long offset = Math.min(Math.max(keys[i], lo), hi) - lo;
            final int slot = (int) (offset >>> sh);
            out[i] = base[slot] + (int) ((inner[slot] - (offset & m)) >>> 63);
        }
    }

    /** Appends row {@code i} of signed 64-bit keys to its bucket's list: {@code lists[cursors[b]++] = i}. */
    void group(final long[] keys, final int rows, final int[] lists, final int[] cursors) {
        final long lo = floor;
        final long hi = last;
        final int sh = shift;
        final long m = mask;
        final int[] base = slotBuckets;
        final long[] inner = innerCuts;
        for (int i = 0; i < rows; i++) {
            final long offset = Math.min(Math.max(keys[i], lo), hi) - lo;
            final int slot = (int) (offset >>> sh);
            lists[cursors[base[slot] + (int) ((inner[slot] - (offset & m)) >>> 63)]++] = i;
        }
    }

    /** Appends row {@code i} of 32-bit keys to its bucket's list: {@code lists[cursors[b]++] = i}. */
    void group(final int[] keys, final int rows, final int[] lists, final int[] cursors) {
        final long lo = floor;
        final long hi = last;
        final int sh = shift;
        final long m = mask;
        final int[] base = slotBuckets;
        final long[] inner = innerCuts;
        for (int i = 0; i < rows; i++) {
            final long offset = Math.min(Math.max(keys[i], lo), hi) - lo;
            final int slot = (int) (offset >>> sh);
            lists[cursors[base[slot] + (int) ((inner[slot] - (offset & m)) >>> 63)]++] = i;
        }
    }
}
