package io.sluice.zonemap;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Equi-depth cut points of one key column estimated from its block zonemaps alone, with no scan of
 * the data (seed 003, part 2). Each block is taken as uniform over its keys {@code [min, max]}
 * (a point mass when {@code min == max}; null rows are counted apart), the blocks' densities are
 * merged by a sweep over their sorted endpoints, and the piecewise-linear cumulative row count is
 * inverted at the wanted depths: O(blocks log blocks).
 *
 * <p>Integer keys are treated as unit cells ({@code [min, max + 1)}); string keys are
 * {@link io.sluice.format.StringKey} prefix keys in unsigned order (see {@link KeySpace}). Cut
 * points are exact keys; lengths and densities are doubles because a key range may be 2^64 wide.
 *
 * <p>With more than {@code maxBlocks} blocks (default {@value #DEFAULT_MAX_BLOCKS}, about a
 * billion rows of 8192-row blocks) the sweep runs over an evenly strided, deterministic sample of
 * them, scaled to the exact row count; row and null counts, min and max always come from every
 * block.
 */
public final class KeyQuantiles {
    /** Cut points kept by default: 1023, splitting the rows into 1024 equal parts. */
    public static final int DEFAULT_CUT_POINTS = 1023;
    /** Most cut points one call may ask for (enough for {@code Topology.MAX_BUCKETS} buckets). */
    public static final int MAX_CUT_POINTS = 65_535;
    /** Blocks swept before sampling starts. */
    public static final int DEFAULT_MAX_BLOCKS = 131_072;
    /**
     * Least block {@link #overlap()} at which a column's sketch describes its distribution: below it the
     * blocks are clustered by the key, and their zonemaps are exact to a block and keep cut points on block
     * edges, which whole-block routing wants.
     */
    public static final double SKETCH_OVERLAP = 0.25;
    /** Equal-depth pieces a column's sketch is read as. */
    public static final int SKETCH_PIECES = 1024;
    /** Equal-width bins over [min, max] in which {@link #uniformity()} looks for the densest spot. */
    public static final int UNIFORMITY_BINS = 1024;

    private final TypeKind kind;
    private final int blockCount;
    private final int sweptBlocks;
    private final long rowCount;
    private final long nullCount;
    private final int blocksWithValues;
    private final long signedMin;
    private final long signedMax;
    private final KeyDensity density;
    private final long[] defaultCuts;
    private final double uniformity;
    private final double overlap;
    private final double distinct;
    private final boolean sketched;

    private KeyQuantiles(final TypeKind kind, final int blockCount, final int blocksWithValues, final int sweptBlocks,
                         final long rowCount, final long nullCount, final long signedMin, final long signedMax,
                         final KeyDensity density) {
        this(kind, blockCount, blocksWithValues, sweptBlocks, rowCount, nullCount, signedMin, signedMax, density,
                density.overlap(), density.distinctEstimate(), false);
    }

    private KeyQuantiles(final TypeKind kind, final int blockCount, final int blocksWithValues, final int sweptBlocks,
                         final long rowCount, final long nullCount, final long signedMin, final long signedMax,
                         final KeyDensity density, final double overlap, final double distinct, final boolean sketched) {
        this.overlap = overlap;
        this.distinct = distinct;
        this.sketched = sketched;
        this.kind = kind;
        this.blockCount = blockCount;
        this.blocksWithValues = blocksWithValues;
        this.sweptBlocks = sweptBlocks;
        this.rowCount = rowCount;
        this.nullCount = nullCount;
        this.signedMin = signedMin;
        this.signedMax = signedMax;
        this.density = density;
        this.uniformity = density.isEmpty() ? 1
                : 1 / density.peakToMean(KeySpace.startOf(signedMin, signedMax), KeySpace.endOf(signedMax), UNIFORMITY_BINS);
        this.defaultCuts = cuts(DEFAULT_CUT_POINTS);
    }

    /**
     * Quantiles of one key column from its zonemaps, one per block in block order.
     *
     * @param kind     the key column's kind
     * @param zoneMaps the key column's zonemap in every block, in block order; empty for no blocks
     * @return the quantiles, sweeping at most {@link #DEFAULT_MAX_BLOCKS} blocks
     * @throws IllegalArgumentException as {@link #requireValid} does
     */
    public static KeyQuantiles of(final TypeKind kind, final ZoneMap[] zoneMaps) {
        return of(kind, zoneMaps, DEFAULT_MAX_BLOCKS);
    }

    /**
     * Quantiles of one key column, sweeping at most {@code maxBlocks} blocks (a deterministic
     * sample of them when there are more).
     *
     * @param kind      the key column's kind
     * @param zoneMaps  the key column's zonemap in every block, in block order; empty for no blocks
     * @param maxBlocks most blocks the sweep reads, 1 or more
     * @return the quantiles
     * @throws IllegalArgumentException naming the block and the rule when a zonemap is absent or
     *                                  inconsistent (negative counts, more nulls than rows, min above max),
     *                                  or when {@code maxBlocks} is below 1
     */
    public static KeyQuantiles of(final TypeKind kind, final ZoneMap[] zoneMaps, final int maxBlocks) {
        requireValid(kind, zoneMaps);
        if (maxBlocks < 1) {
            throw new IllegalArgumentException("maxBlocks " + maxBlocks + " is not valid: sweep at least 1 block");
        }
        long rows = 0;
        long nulls = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int withValues = 0;
        for (int b = 0; b < zoneMaps.length; b++) {
            final ZoneMap zm = zoneMaps[b];
            rows += zm.rowCount();
            nulls += zm.nullCount();
            if (zm.hasValues()) {
                withValues++;
                min = Math.min(min, KeySpace.toSigned(kind, zm.min()));
                max = Math.max(max, KeySpace.toSigned(kind, zm.max()));
            }
        }
        if (withValues == 0) {
            return new KeyQuantiles(kind, zoneMaps.length, 0, 0, rows, nulls, 0, 0, KeyDensity.sweep(0, null, null, null));
        }
        final int swept = Math.min(withValues, maxBlocks);
        final long[] start = new long[swept];
        final long[] end = new long[swept];
        final double[] blockRows = new double[swept];
        // Stride over the blocks that hold values: the k-th swept one is the floor(k * withValues / swept)-th.
        int n = 0;
        int seen = 0;
        double sweptRows = 0;
        for (int b = 0; b < zoneMaps.length && n < swept; b++) {
            final ZoneMap zm = zoneMaps[b];
            if (!zm.hasValues()) {
                continue;
            }
            if (seen++ == (int) ((long) n * withValues / swept)) {
                final long lo = KeySpace.toSigned(kind, zm.min());
                final long hi = KeySpace.toSigned(kind, zm.max());
                start[n] = KeySpace.startOf(lo, hi);
                end[n] = KeySpace.endOf(hi);
                blockRows[n] = zm.nonNullCount();
                sweptRows += blockRows[n];
                n++;
            }
        }
        final double scale = (rows - nulls) / sweptRows;
        if (scale != 1) {
            for (int i = 0; i < n; i++) {
                blockRows[i] *= scale;
            }
        }
        return new KeyQuantiles(kind, zoneMaps.length, withValues, n, rows, nulls, min, max,
                KeyDensity.sweep(n, start, end, blockRows));
    }

    /**
     * Quantiles of one key column from its zonemaps and, where the table keeps one and its blocks overlap
     * ({@value #SKETCH_OVERLAP} or more), its sketch: the zonemaps give the row and null counts, min, max
     * and the blocks' {@link #overlap()}; the sketch's
     * quantiles give the distribution of the rows ({@value #SKETCH_PIECES} equal-depth pieces, a key holding
     * more than one piece a point mass) and its distinct count, which zonemaps of unsorted blocks, each
     * spanning the whole domain, cannot show.
     *
     * @param kind      the key column's kind
     * @param zoneMaps  the key column's zonemap in every block, in block order; empty for no blocks
     * @param maxBlocks most blocks the sweep reads, 1 or more
     * @param sketch    the column's sketch, or null for the zonemaps alone
     * @return the quantiles
     * @throws IllegalArgumentException as {@link #of(TypeKind, ZoneMap[], int)} does, or when the sketch is of
     *                                  another kind
     */
    public static KeyQuantiles of(final TypeKind kind, final ZoneMap[] zoneMaps, final int maxBlocks,
                                  final ColumnSketch sketch) {
        final KeyQuantiles zoned = of(kind, zoneMaps, maxBlocks);
        if (sketch == null || sketch.isEmpty() || !zoned.hasValues() || zoned.overlap() < SKETCH_OVERLAP) {
            return zoned;
        }
        if (sketch.kind() != kind) {
            throw new IllegalArgumentException("a sketch of a " + sketch.kind() + " column cannot describe a " + kind
                    + " key");
        }
        final long[] q = sketch.signedQuantiles(SKETCH_PIECES);
        final long[] start = new long[SKETCH_PIECES];
        final long[] end = new long[SKETCH_PIECES];
        final double[] rows = new double[SKETCH_PIECES];
        final double piece = (double) zoned.nonNullCount() / SKETCH_PIECES;
        for (int i = 0; i < SKETCH_PIECES; i++) {
            // A piece between two equal quantiles is a point mass: the rows of a heavy key.
            start[i] = KeySpace.startOf(q[i], q[i + 1]);
            end[i] = KeySpace.endOf(q[i + 1]);
            rows[i] = piece;
        }
        return new KeyQuantiles(kind, zoned.blockCount, zoned.blocksWithValues, zoned.sweptBlocks, zoned.rowCount,
                zoned.nullCount, zoned.signedMin, zoned.signedMax, KeyDensity.sweep(SKETCH_PIECES, start, end, rows),
                zoned.overlap, Math.min(sketch.distinctEstimate(), zoned.nonNullCount()), true);
    }

    /**
     * Quantiles of a key column without some keys: what the boundaries of a shuffle that dispatches those
     * keys apart (per-key dispatch) should balance. Blocks whose keys are all one excluded key are left out,
     * and so are the sketch's pieces that are point masses at one; when nothing would be left, the
     * quantiles of every key.
     *
     * @param kind      the key column's kind
     * @param zoneMaps  the key column's zonemap in every block
     * @param maxBlocks most blocks the sweep reads, 1 or more
     * @param sketch    the column's sketch, or null for the zonemaps alone
     * @param excluded  the keys to leave out (zonemap keys); empty for {@link #of(TypeKind, ZoneMap[], int, ColumnSketch)}
     * @return the quantiles
     * @throws IllegalArgumentException as {@link #of(TypeKind, ZoneMap[], int, ColumnSketch)} does
     */
    public static KeyQuantiles without(final TypeKind kind, final ZoneMap[] zoneMaps, final int maxBlocks,
                                       final ColumnSketch sketch, final long[] excluded) {
        final KeyQuantiles all = of(kind, zoneMaps, maxBlocks, sketch);
        if (excluded.length == 0 || !all.hasValues()) {
            return all;
        }
        final Set<Long> out = new HashSet<>();
        for (final long k : excluded) {
            out.add(k);
        }
        if (all.sketched) {
            final long[] q = sketch.signedQuantiles(SKETCH_PIECES);
            final long[] start = new long[SKETCH_PIECES];
            final long[] end = new long[SKETCH_PIECES];
            final double[] rows = new double[SKETCH_PIECES];
            final double piece = (double) all.nonNullCount() / SKETCH_PIECES;
            int n = 0;
            for (int i = 0; i < SKETCH_PIECES; i++) {
                if (q[i] == q[i + 1] && out.contains(KeySpace.fromSigned(kind, q[i]))) {
                    continue;
                }
                start[n] = KeySpace.startOf(q[i], q[i + 1]);
                end[n] = KeySpace.endOf(q[i + 1]);
                rows[n] = piece;
                n++;
            }
            if (n == 0 || n == SKETCH_PIECES) {
                return all;
            }
            return new KeyQuantiles(kind, all.blockCount, all.blocksWithValues, all.sweptBlocks, all.rowCount,
                    all.nullCount, all.signedMin, all.signedMax, KeyDensity.sweep(n, start, end, rows), all.overlap,
                    Math.max(1, all.distinct - out.size()), true);
        }
        final List<ZoneMap> kept = new ArrayList<>();
        for (final ZoneMap zm : zoneMaps) {
            if (!(zm.hasValues() && zm.min() == zm.max() && out.contains(zm.min()))) {
                kept.add(zm);
            }
        }
        if (kept.size() == zoneMaps.length) {
            return all;
        }
        final KeyQuantiles rest = of(kind, kept.toArray(new ZoneMap[0]), maxBlocks);
        return rest.hasValues() ? rest : all;
    }

    /**
     * Whether the distribution comes from the column's sketch rather than its zonemaps.
     *
     * @return true when {@link #of(TypeKind, ZoneMap[], int, ColumnSketch)} was given a sketch with values
     */
    public boolean sketched() {
        return sketched;
    }

    /**
     * Checks zonemaps handed in by a caller the way {@link #of} does: present, one per block, each
     * consistent; the message names the block and the rule.
     *
     * @param kind     the key column's kind, not null
     * @param zoneMaps the key column's zonemaps, one per block, none null
     * @throws IllegalArgumentException when the kind or the array is null, or a zonemap is null or
     *                                  inconsistent
     */
    public static void requireValid(final TypeKind kind, final ZoneMap[] zoneMaps) {
        if (kind == null) {
            throw new IllegalArgumentException("no key type given: pass the TypeKind of the key column");
        }
        if (zoneMaps == null) {
            throw new IllegalArgumentException("no zonemaps (null): pass one ZoneMap per block of the key column,"
                    + " in block order (an empty array for a table without blocks)");
        }
        for (int b = 0; b < zoneMaps.length; b++) {
            check(kind, b, zoneMaps[b]);
        }
    }

    private static ZoneMap check(final TypeKind kind, final int block, final ZoneMap zm) {
        if (zm == null) {
            throw new IllegalArgumentException("zonemap of block " + block + " is absent (null): pass one ZoneMap per block");
        }
        if (zm.rowCount() < 0 || zm.nullCount() < 0 || zm.nullCount() > zm.rowCount()) {
            throw new IllegalArgumentException("zonemap of block " + block + " is not valid: " + zm.nullCount()
                    + " nulls in " + zm.rowCount() + " rows (counts must satisfy 0 <= nulls <= rows)");
        }
        if (zm.hasValues() && kind.compareKeys(zm.min(), zm.max()) > 0) {
            throw new IllegalArgumentException("zonemap of block " + block + " is not valid: min " + zm.min()
                    + " is above max " + zm.max() + " (" + kind + " keys compare "
                    + (kind == TypeKind.STRING ? "unsigned" : "signed") + ")");
        }
        return zm;
    }

    /**
     * The key's kind.
     *
     * @return the kind the zonemaps were read as
     */
    public TypeKind kind() {
        return kind;
    }

    /**
     * Blocks described.
     *
     * @return the number of zonemaps given, including blocks without values
     */
    public int blockCount() {
        return blockCount;
    }

    /**
     * Blocks the sweep used: all blocks with a non-null key, or a sample of them past the threshold.
     *
     * @return 0 to the number of blocks with a non-null key
     */
    public int sweptBlocks() {
        return sweptBlocks;
    }

    /**
     * Whether the sweep ran over a sample of the blocks.
     *
     * @return true when some blocks with values were left out of the sweep
     */
    public boolean sampled() {
        return sweptBlocks < blocksWithValues;
    }

    /**
     * Rows in all blocks.
     *
     * @return the total row count, nulls included
     */
    public long rowCount() {
        return rowCount;
    }

    /**
     * Rows whose key is null.
     *
     * @return the null count over all blocks
     */
    public long nullCount() {
        return nullCount;
    }

    /**
     * Rows whose key is not null.
     *
     * @return {@code rowCount() - nullCount()}
     */
    public long nonNullCount() {
        return rowCount - nullCount;
    }

    /**
     * Whether any row has a non-null key; without one there are no cut points to give.
     *
     * @return true when some block has a non-null key
     */
    public boolean hasValues() {
        return !density.isEmpty();
    }

    /**
     * The smallest key (valid when {@link #hasValues()}).
     *
     * @return the least zonemap min over all blocks
     * @throws IllegalStateException when no row has a non-null key
     */
    public long min() {
        requireValues("min");
        return KeySpace.fromSigned(kind, signedMin);
    }

    /**
     * The largest key (valid when {@link #hasValues()}).
     *
     * @return the greatest zonemap max over all blocks
     * @throws IllegalStateException when no row has a non-null key
     */
    public long max() {
        requireValues("max");
        return KeySpace.fromSigned(kind, signedMax);
    }

    /**
     * The 1023 default equi-depth cut points: key {@code i} has about {@code (i + 1) / 1024} of the rows below it.
     *
     * @return a new array of {@link #DEFAULT_CUT_POINTS} non-decreasing keys, empty when there are no values
     */
    public long[] cutPoints() {
        return defaultCuts.clone();
    }

    /**
     * {@code n} equi-depth cut points: about {@code (i + 1) / (n + 1)} of the non-null rows lie
     * below cut {@code i}. Non-decreasing; a key holding more than one share of the rows yields
     * repeated cut points (which a caller may treat as a reason not to range-split). Empty when
     * the column has no non-null key.
     *
     * @param n 0..{@value #MAX_CUT_POINTS}
     * @return a new array of {@code n} keys, or an empty one when there are no values
     * @throws IllegalArgumentException when {@code n} is outside 0..{@value #MAX_CUT_POINTS}
     */
    public long[] cutPoints(final int n) {
        if (n < 0 || n > MAX_CUT_POINTS) {
            throw new IllegalArgumentException(n + " cut points is not valid: ask for 0.." + MAX_CUT_POINTS
                    + " (one fewer than the buckets)");
        }
        return cuts(n);
    }

    private long[] cuts(final int n) {
        if (density.isEmpty()) {
            return new long[0];
        }
        final long[] cuts = new long[n];
        final double total = density.total();
        for (int i = 0; i < n; i++) {
            cuts[i] = KeySpace.fromSigned(kind, density.keyAt(total * (i + 1) / (n + 1)));
        }
        return cuts;
    }

    /**
     * Estimated non-null rows whose key is below {@code key}.
     *
     * @param key a zonemap key of this column's kind
     * @return 0 to about {@link #nonNullCount()} (an estimate, as a double)
     */
    public double rowsBelow(final long key) {
        return density.rowsBelow(KeySpace.toSigned(kind, key));
    }

    /**
     * The greatest key below which at most {@code rows} non-null rows lie, by this estimate: where a range
     * split that may put no more than {@code rows} rows into a range starting at the lowest key must cut (the
     * inverse of {@link #rowsBelow}, rounded down to a whole key). When {@code rows} reaches every row of the
     * estimate (fewer than {@link #nonNullCount()} for quantiles {@link #without} some keys), the key past the
     * last one: the last key plus one, or the last key if it is the very top.
     *
     * @param rows rows allowed below the key, 0 or more
     * @return a zonemap key of this column's kind
     * @throws IllegalStateException when no row has a non-null key
     * @throws IllegalArgumentException when {@code rows} is negative or NaN
     */
    public long keyWithRowsBelow(final double rows) {
        requireValues("key with rows below");
        if (!(rows >= 0)) {
            throw new IllegalArgumentException(rows + " rows below a key is not valid: pass 0 or more");
        }
        return KeySpace.fromSigned(kind, density.floorKeyAt(rows));
    }

    /**
     * Global density over highest local density, in (0, 1]: the mean row count of
     * {@value #UNIFORMITY_BINS} equal-width bins over [min, max] divided by the fullest bin's.
     * 1 means perfectly uniform; a key with a peak holding a tenth of the rows scores at most
     * about 0.01. 1 when there are no values.
     *
     * @return the uniformity, in (0, 1]
     */
    public double uniformity() {
        return uniformity;
    }

    /**
     * Size-weighted pairwise overlap of the block key ranges, in [0, 1]: for two rows of different
     * blocks, the probability that the first one's key lies in the second one's block range.
     * 0 for disjoint blocks (a table clustered by the key), 1 when every block covers the same
     * range (an unclustered key, whose zonemaps cannot show its skew).
     *
     * @return the overlap, in [0, 1]
     */
    public double overlap() {
        return overlap;
    }

    /**
     * Estimated distinct non-null keys: from zonemaps, at most one per integer key in the blocks' ranges
     * and one per row, and for strings the distinct 8-byte prefixes, which is what a range split can tell
     * apart; from a sketch, its HLL count of the distinct values.
     *
     * @return the estimate, 0 to about {@link #nonNullCount()}
     */
    public double distinctEstimate() {
        return distinct;
    }

    private void requireValues(final String what) {
        if (!hasValues()) {
            throw new IllegalStateException("no " + what + ": the key column has no non-null value in "
                    + blockCount + " blocks");
        }
    }

    @Override
    public String toString() {
        return "KeyQuantiles[" + kind + ", blocks=" + blockCount + ", swept=" + sweptBlocks + ", rows=" + rowCount
                + ", nulls=" + nullCount + ", uniformity=" + uniformity + ", overlap=" + overlap()
                + (sketched ? ", sketched" : "") + "]";
    }
}
