package io.sluice.shuffle.operator;

import java.util.Arrays;

/**
 * Where one sender puts the probe rows of heavy keys, whose matching build rows are on every bucket, so that
 * they may go to any bucket: into the buckets that the other keys left emptiest, this CN's first.
 *
 * <p>The sender sees only its own rows, so it assumes every sender sees the same: the rows it sends a bucket
 * of the other keys, times the CN count, stand for that bucket's whole load of them, and every CN holds as many
 * heavy rows as it does. Under that assumption the heavy rows raise the emptiest buckets to one water level
 * (their need). A CN keeps its heavy rows for its own buckets' need; only what its buckets do not need (they
 * already hold more than their share of the other keys) crosses, to the CNs whose need exceeds their own heavy
 * rows, in proportion to that shortfall. Every CN computing the same fills every bucket to the level with the
 * fewest rows crossing. The fractions follow the counts so far, and each batch's heavy rows go where the
 * placed rows fall furthest behind them, so early estimates are corrected as the counts settle.
 *
 * <p>Owned by the one thread that drives its shuffle operator; allocates nothing per batch.
 */
final class HeavyRowPlacement {
    private final int bucketCount;
    private final int cnCount;
    private final int cores;
    private final int homeCn;
    /** Rows of the other keys this sender sent to each bucket so far. */
    private final long[] ownerRows;
    /** Heavy rows placed in each bucket so far. */
    private final long[] placed;
    private long heavyRows;
    /** Scratch: each bucket's need, its desired fraction, the sorted loads, each CN's need. */
    private final double[] need;
    private final double[] fraction;
    private final double[] sortedLoad;
    private final double[] cnNeed;

    /**
     * A placement for a sender on {@code homeCn} of a shuffle over {@code cnCount x cores} buckets, CN {@code c}
     * owning buckets {@code c x cores .. c x cores + cores - 1}.
     *
     * @param cnCount the CNs, 1 or more (1 in one process, where every bucket is local)
     * @param cores   buckets per CN, 1 or more
     * @param homeCn  this sender's CN
     * @throws IllegalArgumentException when the CN is not one of the CNs
     */
    HeavyRowPlacement(final int cnCount, final int cores, final int homeCn) {
        if (cnCount < 1 || cores < 1 || homeCn < 0 || homeCn >= cnCount) {
            throw new IllegalArgumentException("a heavy-row placement needs a CN " + homeCn + " of " + cnCount
                    + " CNs of " + cores + " cores: give the sender's CN and the shuffle's topology");
        }
        this.bucketCount = cnCount * cores;
        this.cnCount = cnCount;
        this.cores = cores;
        this.homeCn = homeCn;
        this.ownerRows = new long[bucketCount];
        this.placed = new long[bucketCount];
        this.need = new double[bucketCount];
        this.fraction = new double[bucketCount];
        this.sortedLoad = new double[bucketCount];
        this.cnNeed = new double[cnCount];
    }

    /** Counts rows of the other keys sent to a bucket. */
    void ownerRows(final int bucket, final long rows) {
        ownerRows[bucket] += rows;
    }

    /**
     * Places a batch's heavy rows.
     *
     * @param rows the batch's heavy rows
     * @param out  receives the rows each bucket takes, summing to {@code rows}; at least the bucket count long
     */
    void place(final int rows, final int[] out) {
        Arrays.fill(out, 0, bucketCount, 0);
        if (rows == 0) {
            return;
        }
        heavyRows += rows;
        fractions();
        double behindSum = 0;
        for (int b = 0; b < bucketCount; b++) {
            final double behind = Math.max(0, fraction[b] * heavyRows - placed[b]);
            need[b] = behind;
            behindSum += behind;
        }
        if (behindSum <= 0) {
            for (int b = 0; b < bucketCount; b++) {
                need[b] = fraction[b];
                behindSum += fraction[b];
            }
        }
        // Cumulative rounding: every bucket within one row of its share of this batch, the sum exact.
        double cumulative = 0;
        long given = 0;
        for (int b = 0; b < bucketCount; b++) {
            cumulative += need[b];
            final long upTo = b == bucketCount - 1 ? rows : Math.round(rows * cumulative / behindSum);
            out[b] = (int) (upTo - given);
            given = upTo;
            placed[b] += out[b];
        }
    }

    /** Fills {@link #fraction}: each bucket's share of this sender's heavy rows, as the class comment says. */
    private void fractions() {
        final double supply = heavyRows;
        // Loads in this sender's units: its rows of the other keys, as every CN's sender sees the same.
        for (int b = 0; b < bucketCount; b++) {
            sortedLoad[b] = (double) cnCount * ownerRows[b];
        }
        Arrays.sort(sortedLoad);
        // The water level: the heavy rows of all CNs (cnCount x supply) raise the emptiest buckets to it.
        double total = cnCount * supply;
        double level = sortedLoad[0];
        int under = 0;
        while (under < bucketCount) {
            final double next = under + 1 < bucketCount ? sortedLoad[under + 1] : Double.POSITIVE_INFINITY;
            under++;
            final double toFill = under * (next - level);
            if (toFill >= total) {
                level += total / under;
                break;
            }
            total -= toFill;
            level = next;
        }
        Arrays.fill(cnNeed, 0);
        for (int b = 0; b < bucketCount; b++) {
            need[b] = Math.max(0, level - (double) cnCount * ownerRows[b]);
            cnNeed[b / cores] += need[b];
        }
        final double home = cnNeed[homeCn];
        final double keep = Math.min(supply, home);
        final double excess = supply - keep;
        double shortfall = 0;
        for (int c = 0; c < cnCount; c++) {
            if (c != homeCn) {
                shortfall += Math.max(0, cnNeed[c] - supply);
            }
        }
        for (int b = 0; b < bucketCount; b++) {
            final int c = b / cores;
            final double rows;
            if (c == homeCn) {
                rows = home > 0 ? keep * need[b] / home : excess > 0 && shortfall <= 0 ? excess / cores : 0;
            } else {
                rows = shortfall > 0 && cnNeed[c] > 0
                        ? excess * Math.max(0, cnNeed[c] - supply) / shortfall * need[b] / cnNeed[c] : 0;
            }
            fraction[b] = rows / supply;
        }
        if (home <= 0 && shortfall <= 0) {
            // Nothing anywhere needs rows (cannot happen with rows to place): this CN's buckets take them evenly.
            for (int b = homeCn * cores; b < (homeCn + 1) * cores; b++) {
                fraction[b] = 1.0 / cores;
            }
        }
    }
}
