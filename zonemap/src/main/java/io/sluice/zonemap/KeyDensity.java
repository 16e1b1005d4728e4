package io.sluice.zonemap;

/**
 * The merged key density of a set of blocks, each uniform over its signed interval
 * {@code [start, end)}: piecewise constant between the sorted block endpoints, so the number of
 * rows below a key is piecewise linear and can be inverted exactly segment by segment. Built by
 * one sweep over the sorted endpoints; the sweep also measures how much the blocks overlap.
 */
final class KeyDensity {
    /** Segment boundaries, signed order, strictly increasing. */
    private final long[] pos;
    /** Rows below {@code pos[j]}. */
    private final double[] cum;
    /** Rows per key in {@code [pos[j], pos[j + 1])}. */
    private final double[] dens;
    private final double overlap;

    private KeyDensity(final long[] pos, final double[] cum, final double[] dens, final double overlap) {
        this.pos = pos;
        this.cum = cum;
        this.dens = dens;
        this.overlap = overlap;
    }

    /**
     * Sweeps blocks {@code 0..n-1}: block {@code i} spreads {@code rows[i]} rows evenly over
     * {@code [start[i], end[i])} ({@code start < end}). O(n log n).
     */
    static KeyDensity sweep(final int n, final long[] start, final long[] end, final double[] rows) {
        if (n == 0) {
            return new KeyDensity(new long[0], new double[0], new double[0], 0);
        }
        final long[] eventPos = new long[2 * n];
        for (int i = 0; i < n; i++) {
            eventPos[2 * i] = start[i];
            eventPos[2 * i + 1] = end[i];
        }
        final int[] order = KeySpace.sortedIndices(eventPos, 2 * n);
        final double[] blockDensity = new double[n];
        double totalRows = 0;
        double sumSquares = 0;
        for (int i = 0; i < n; i++) {
            blockDensity[i] = rows[i] / KeySpace.width(start[i], end[i]);
            totalRows += rows[i];
            sumSquares += rows[i] * rows[i];
        }

        final long[] pos = new long[2 * n];
        final double[] cum = new double[2 * n];
        final double[] dens = new double[2 * n];
        int m = 0;
        int active = 0;
        // Densities of very different magnitudes are added and removed again; compensated sums keep
        // a wide block's tiny density from vanishing after a narrow block's large one is subtracted.
        final CompensatedSum density = new CompensatedSum();
        final CompensatedSum activeRows = new CompensatedSum();
        final CompensatedSum densityTimesRows = new CompensatedSum();
        double overlapSum = 0;
        int e = 0;
        while (e < 2 * n) {
            final long p = eventPos[order[e]];
            if (m > 0) {
                final double len = KeySpace.width(pos[m - 1], p);
                final double d = active == 0 ? 0 : Math.max(0, density.value());
                dens[m - 1] = d;
                cum[m] = cum[m - 1] + d * len;
                if (active > 1) {
                    overlapSum += len * Math.max(0, d * activeRows.value() - densityTimesRows.value());
                }
            }
            pos[m++] = p;
            while (e < 2 * n && eventPos[order[e]] == p) {
                final int event = order[e++];
                final int block = event >>> 1;
                final double sign = (event & 1) == 0 ? 1 : -1;
                active += (int) sign;
                density.add(sign * blockDensity[block]);
                activeRows.add(sign * rows[block]);
                densityTimesRows.add(sign * blockDensity[block] * rows[block]);
            }
            if (active == 0) {
                density.reset();
                activeRows.reset();
                densityTimesRows.reset();
            }
        }
        final double pairs = totalRows * totalRows - sumSquares;
        final double overlap = pairs > 0 ? Math.min(1, overlapSum / pairs) : 0;
        return new KeyDensity(java.util.Arrays.copyOf(pos, m), java.util.Arrays.copyOf(cum, m),
                java.util.Arrays.copyOf(dens, Math.max(0, m - 1)), overlap);
    }

    /** Whether no block contributed rows. */
    boolean isEmpty() {
        return pos.length == 0 || total() <= 0;
    }

    /** Rows over all segments. */
    double total() {
        return pos.length == 0 ? 0 : cum[cum.length - 1];
    }

    /**
     * Size-weighted pairwise overlap of the block intervals: for two rows from different blocks
     * (row-weighted), the probability that the first row's key lies inside the second row's block
     * interval. 0 when no two blocks share a key, 1 when all blocks cover the same interval.
     */
    double overlap() {
        return overlap;
    }

    /** Rows with a signed key below {@code signedKey}. */
    double rowsBelow(final long signedKey) {
        if (pos.length == 0 || signedKey <= pos[0]) {
            return 0;
        }
        if (signedKey >= pos[pos.length - 1]) {
            return total();
        }
        final int j = KeySpace.countAtOrBelow(pos, signedKey) - 1;
        return cum[j] + dens[j] * KeySpace.width(pos[j], signedKey);
    }

    /**
     * The signed key {@code x} at which {@link #rowsBelow} reaches {@code target} (rounded to the
     * nearest key), for {@code 0 < target <= total()}.
     */
    long keyAt(final double target) {
        // First segment whose end reaches the target; its start lies below the target, so its density is positive.
        int lo = 0;
        int hi = pos.length - 1;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (cum[mid + 1] >= target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        final int j = Math.min(lo, pos.length - 2);
        if (j < 0) {
            return pos[0];
        }
        final double d = dens[j];
        final double offset = d > 0 ? (target - cum[j]) / d : 0;
        return KeySpace.offset(pos[j], pos[j + 1], offset);
    }

    /**
     * The greatest signed key {@code x} with {@link #rowsBelow}{@code (x) <= target} (keys past the last one
     * count all rows, so for {@code target >= total()} the end of the last segment), for {@code target >= 0}:
     * the cut that puts as many rows as {@code target} allows below it, never more.
     */
    long floorKeyAt(final double target) {
        if (target >= total()) {
            return pos[pos.length - 1];
        }
        // Last segment start with at most the target below it; the next start has more, so its density is positive.
        int lo = 0;
        int hi = pos.length - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (cum[mid] <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return KeySpace.offset(pos[lo], pos[lo + 1] - 1, Math.floor((target - cum[lo]) / dens[lo]));
    }

    /**
     * Highest row count in any of {@code bins} equal-width bins over signed {@code [lo, hi)},
     * divided into the mean bin's: 1 for a perfectly even spread, large for a peak.
     */
    double peakToMean(final long lo, final long hi, final int bins) {
        final double total = total();
        if (total <= 0) {
            return 1;
        }
        final double width = KeySpace.width(lo, hi);
        final double binWidth = width / bins;
        double peak = 0;
        double below = 0;
        int j = 0;
        for (int k = 1; k <= bins; k++) {
            final double edge = k == bins ? width : k * binWidth;
            // Advance to the segment holding the edge (offsets relative to lo).
            while (j < pos.length - 1 && KeySpace.width(lo, pos[j + 1]) <= edge) {
                j++;
            }
            final double at;
            if (j >= pos.length - 1) {
                at = total;
            } else {
                final double segStart = KeySpace.width(lo, pos[j]);
                at = edge <= segStart ? cum[j] : cum[j] + dens[j] * (edge - segStart);
            }
            peak = Math.max(peak, at - below);
            below = at;
        }
        return peak / (total / bins);
    }

    /**
     * Estimated distinct keys: per segment, at most one per integer key and at most one per row.
     */
    double distinctEstimate() {
        double sum = 0;
        for (int j = 0; j < dens.length; j++) {
            final double len = KeySpace.width(pos[j], pos[j + 1]);
            sum += len * Math.min(1, dens[j]);
        }
        return sum;
    }

    /** Neumaier's compensated running sum: keeps the low-order bits that plain addition drops. */
    private static final class CompensatedSum {
        private double sum;
        private double compensation;

        void add(final double x) {
            final double t = sum + x;
            compensation += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
            sum = t;
        }

        double value() {
            return sum + compensation;
        }

        void reset() {
            sum = 0;
            compensation = 0;
        }
    }
}
