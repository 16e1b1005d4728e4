package io.sluice.shuffle;

import io.sluice.format.TypeKind;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.KeySpace;
import java.math.BigInteger;
import java.util.Locale;

/**
 * The {@code bucketCount - 1} sorted cut points of a range shuffle sized to a {@link Topology},
 * chosen from zonemap statistics (seed 003): equal-width between min and max when the key is
 * uniform, at equi-depth quantiles when it is skewed, or no ranges at all (hash) when a range split
 * cannot work, with the reason recorded.
 *
 * <p>CN-level and core-level ranges nest: bucket {@code b} runs on CN {@code b / coresPerCn}, so a
 * CN's range is the union of its cores' consecutive bucket ranges and {@link #cnCutPoints()} is
 * every {@code coresPerCn}-th cut point.
 */
public final class RangeBoundaries {
    private final Topology topology;
    private final TypeKind kind;
    private final BoundaryMethod method;
    private final HashReason hashReason;
    private final String explanation;
    /** Cut points as keys (prefix keys for strings). */
    private final long[] cuts;
    /** The same cut points in signed order. */
    private final long[] signedCuts;
    private final BucketFunction function;

    private RangeBoundaries(final Topology topology, final TypeKind kind, final BoundaryMethod method,
                            final HashReason hashReason, final String explanation, final long[] signedCuts) {
        this.topology = topology;
        this.kind = kind;
        this.method = method;
        this.hashReason = hashReason;
        this.explanation = explanation;
        this.signedCuts = signedCuts;
        this.cuts = new long[signedCuts.length];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = KeySpace.fromSigned(kind, signedCuts[i]);
        }
        this.function = method.isRange()
                ? new RangeBucketFunction(kind, cuts)
                : new HashBucketFunction(topology.bucketCount(), kind);
    }

    /**
     * Boundaries for a topology from key statistics, with the default thresholds.
     *
     * @param stats    the shuffle key's statistics, from its zonemaps
     * @param topology the CNs x cores to size the buckets to
     * @return the boundaries, or a hash fallback with its reason
     * @throws IllegalArgumentException when {@code stats} or {@code topology} is null
     */
    public static RangeBoundaries plan(final KeyQuantiles stats, final Topology topology) {
        return plan(stats, topology, BoundaryConfig.DEFAULT);
    }

    /**
     * Boundaries for a topology from key statistics: hash when there are no values, a single value
     * or too few distinct keys; else equal-width when {@code stats.uniformity()} reaches the
     * config's threshold, quantiles otherwise; hash after all when rounding makes two cuts equal.
     *
     * @param stats    the shuffle key's statistics, from its zonemaps
     * @param topology the CNs x cores to size the buckets to
     * @param config   the thresholds that decide between the methods
     * @return the boundaries, or a hash fallback with its reason
     * @throws IllegalArgumentException when any argument is null
     */
    public static RangeBoundaries plan(final KeyQuantiles stats, final Topology topology, final BoundaryConfig config) {
        if (stats == null || topology == null || config == null) {
            throw new IllegalArgumentException("planning boundaries needs key statistics, a topology and a config,"
                    + " got stats=" + stats + ", topology=" + topology + ", config=" + config);
        }
        final TypeKind kind = stats.kind();
        final int buckets = topology.bucketCount();
        if (!stats.hasValues()) {
            return hash(topology, kind, HashReason.NO_STATS, "no non-null key in " + stats.blockCount()
                    + " blocks, so no zonemap range to split");
        }
        if (stats.min() == stats.max()) {
            return hash(topology, kind, HashReason.SINGLE_VALUE, "every key is " + stats.min()
                    + " (min == max), one range would hold all rows");
        }
        final double distinct = stats.distinctEstimate();
        if (distinct < (double) buckets * config.minDistinctPerBucket()) {
            return hash(topology, kind, HashReason.TOO_FEW_DISTINCT, String.format(Locale.ROOT,
                    "about %.0f distinct keys for %d buckets, a range split needs %d per bucket",
                    distinct, buckets, config.minDistinctPerBucket()));
        }
        final boolean uniform = stats.uniformity() >= config.uniformityThreshold();
        final long[] signed;
        final BoundaryMethod method;
        final String why;
        if (uniform) {
            signed = equalWidth(KeySpace.toSigned(kind, stats.min()), KeySpace.toSigned(kind, stats.max()), buckets);
            method = BoundaryMethod.RANGE_UNIFORM;
            why = String.format(Locale.ROOT, "uniformity %.3f >= %.3f, equal-width ranges between min and max",
                    stats.uniformity(), config.uniformityThreshold());
        } else {
            final long[] q = stats.cutPoints(buckets - 1);
            signed = new long[q.length];
            for (int i = 0; i < q.length; i++) {
                signed[i] = KeySpace.toSigned(kind, q[i]);
            }
            method = BoundaryMethod.RANGE_QUANTILE;
            why = String.format(Locale.ROOT, "uniformity %.3f < %.3f, ranges at equi-depth quantiles",
                    stats.uniformity(), config.uniformityThreshold());
        }
        for (int i = 1; i < signed.length; i++) {
            if (signed[i] <= signed[i - 1]) {
                return hash(topology, kind, HashReason.DUPLICATE_CUTS, "cut points " + (i - 1) + " and " + i
                        + " are both " + KeySpace.fromSigned(kind, signed[i]) + " after rounding to whole keys"
                        + " (a key too heavy or a range too narrow for " + buckets + " buckets)");
            }
        }
        return new RangeBoundaries(topology, kind, method, HashReason.NONE, why, signed);
    }

    /**
     * Range boundaries at cut points a caller chose.
     *
     * @param kind      the key's kind, which fixes how the cut points compare
     * @param cutPoints exactly {@code topology.bucketCount() - 1} keys, strictly increasing in the
     *                  kind's key order (unsigned for string prefix keys)
     * @param topology  the CNs x cores the buckets run on
     * @return boundaries of method {@link BoundaryMethod#RANGE_GIVEN}
     * @throws IllegalArgumentException when an argument is null, naming the count, or the index and
     *                                  values of the first pair out of order
     */
    public static RangeBoundaries of(final TypeKind kind, final long[] cutPoints, final Topology topology) {
        if (kind == null || cutPoints == null || topology == null) {
            throw new IllegalArgumentException("given boundaries need a key kind, cut points and a topology, got kind="
                    + kind + ", cutPoints=" + (cutPoints == null ? null : cutPoints.length + " keys")
                    + ", topology=" + topology);
        }
        if (cutPoints.length != topology.bucketCount() - 1) {
            throw new IllegalArgumentException(cutPoints.length + " cut points given for topology " + topology
                    + ": " + topology.bucketCount() + " buckets need exactly " + (topology.bucketCount() - 1));
        }
        final long[] signed = new long[cutPoints.length];
        for (int i = 0; i < signed.length; i++) {
            signed[i] = KeySpace.toSigned(kind, cutPoints[i]);
            if (i > 0 && signed[i] <= signed[i - 1]) {
                throw new IllegalArgumentException("cut points must be strictly increasing (" + kind + " keys compare "
                        + (kind == TypeKind.STRING ? "unsigned" : "signed") + "): cut " + (i - 1) + " = " + cutPoints[i - 1]
                        + (signed[i] == signed[i - 1] ? " equals" : " is above") + " cut " + i + " = " + cutPoints[i]
                        + "; sort them and remove duplicates");
            }
        }
        return new RangeBoundaries(topology, kind, BoundaryMethod.RANGE_GIVEN, HashReason.NONE,
                cutPoints.length + " cut points given by the caller", signed);
    }

    /**
     * Boundaries exactly as planned elsewhere (the coordinator) and shipped with the plan: the method, reason and
     * explanation the planner recorded, and its cut points as {@link #cutPoints()} gave them.
     *
     * @param topology    the CNs x cores they were planned for
     * @param kind        the key's kind
     * @param method      how they were planned
     * @param hashReason  why they fell back to hash, or {@link HashReason#NONE}
     * @param explanation the planner's words for them
     * @param cutPoints   the cut points, in key order (none for hash)
     * @return the boundaries as planned
     * @throws IllegalArgumentException when the number of cut points does not fit the topology and method
     */
    public static RangeBoundaries restore(final Topology topology, final TypeKind kind, final BoundaryMethod method,
                                          final HashReason hashReason, final String explanation,
                                          final long[] cutPoints) {
        final int expected = method == BoundaryMethod.HASH ? 0 : topology.bucketCount() - 1;
        if (cutPoints.length != expected) {
            throw new IllegalArgumentException(cutPoints.length + " cut points shipped for " + method + " boundaries of"
                    + " topology " + topology + ", which need " + expected + ": the plan was decided for another topology");
        }
        final long[] signed = new long[cutPoints.length];
        for (int i = 0; i < signed.length; i++) {
            signed[i] = KeySpace.toSigned(kind, cutPoints[i]);
        }
        return new RangeBoundaries(topology, kind, method, hashReason, explanation, signed);
    }

    /**
     * Quantile boundaries at strictly increasing signed cut points chosen in this package from more than one
     * key's statistics ({@link BalancedJoinBoundaries}).
     */
    static RangeBoundaries quantile(final Topology topology, final TypeKind kind, final String explanation,
                                    final long[] signedCuts) {
        return new RangeBoundaries(topology, kind, BoundaryMethod.RANGE_QUANTILE, HashReason.NONE, explanation,
                signedCuts);
    }

    private static RangeBoundaries hash(final Topology topology, final TypeKind kind, final HashReason reason,
                                        final String why) {
        return new RangeBoundaries(topology, kind, BoundaryMethod.HASH, reason, why, new long[0]);
    }

    /** {@code buckets - 1} signed cuts splitting the keys {@code [min, max + 1)} into equal widths (rounded down). */
    static long[] equalWidth(final long signedMin, final long signedMax, final int buckets) {
        final long start = KeySpace.startOf(signedMin, signedMax);
        final BigInteger width = unsigned(KeySpace.endOf(signedMax) - start);
        final long[] cuts = new long[buckets - 1];
        for (int i = 1; i < buckets; i++) {
            cuts[i - 1] = start + width.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(buckets)).longValue();
        }
        return cuts;
    }

    private static BigInteger unsigned(final long value) {
        final BigInteger b = BigInteger.valueOf(value);
        return value >= 0 ? b : b.add(BigInteger.ONE.shiftLeft(64));
    }

    /**
     * The topology the boundaries are sized to.
     *
     * @return the CNs x cores given when planning
     */
    public Topology topology() {
        return topology;
    }

    /**
     * The key's kind.
     *
     * @return the kind the cut points are keys of
     */
    public TypeKind kind() {
        return kind;
    }

    /**
     * How the boundaries were chosen.
     *
     * @return the method, {@link BoundaryMethod#HASH} for a fallback
     */
    public BoundaryMethod method() {
        return method;
    }

    /**
     * Whether the buckets are key ranges (only then can scans colocate).
     *
     * @return true unless the boundaries fell back to hash
     */
    public boolean isRange() {
        return method.isRange();
    }

    /**
     * Why the shuffle hashes, or {@link HashReason#NONE} for ranges.
     *
     * @return the reason for the fallback
     */
    public HashReason hashReason() {
        return hashReason;
    }

    /**
     * One line on the choice, with the numbers behind it.
     *
     * @return text for EXPLAIN and logs, e.g. {@code "uniformity 0.950 >= 0.800, equal-width ranges between min and max"}
     */
    public String explanation() {
        return explanation;
    }

    /**
     * Number of buckets: the topology's CNs x cores.
     *
     * @return {@code topology().bucketCount()}
     */
    public int bucketCount() {
        return topology.bucketCount();
    }

    /**
     * A copy of the {@code bucketCount - 1} cut points (keys; empty for hash). Bucket {@code i} holds keys in {@code [cut[i-1], cut[i])}.
     *
     * @return a new array of the cut points, in key order
     */
    public long[] cutPoints() {
        return cuts.clone();
    }

    /**
     * The {@code cnCount - 1} CN-level cut points (empty for hash): CN {@code k} holds keys in
     * {@code [cn[k-1], cn[k])}, the union of its buckets' ranges. They are cut points
     * {@code coresPerCn - 1, 2 * coresPerCn - 1, ...}.
     *
     * @return a new array of the CN cut points, in key order
     */
    public long[] cnCutPoints() {
        if (!isRange()) {
            return new long[0];
        }
        final int cores = topology.coresPerCn();
        final long[] cn = new long[topology.cnCount() - 1];
        for (int k = 1; k < topology.cnCount(); k++) {
            cn[k - 1] = cuts[k * cores - 1];
        }
        return cn;
    }

    /**
     * The {@code coresPerCn - 1} cut points between the cores of one CN (empty for hash).
     *
     * @param cn the CN, 0 to {@code topology().cnCount() - 1}
     * @return a new array of that CN's inner cut points, in key order
     * @throws IndexOutOfBoundsException when the topology has no such CN
     */
    public long[] coreCutPoints(final int cn) {
        if (cn < 0 || cn >= topology.cnCount()) {
            throw new IndexOutOfBoundsException("CN " + cn + " is not in topology " + topology
                    + ": use 0.." + (topology.cnCount() - 1));
        }
        if (!isRange()) {
            return new long[0];
        }
        final int cores = topology.coresPerCn();
        final long[] core = new long[cores - 1];
        System.arraycopy(cuts, cn * cores, core, 0, cores - 1);
        return core;
    }

    /** The cut points in signed order (see {@link KeySpace}); do not modify. */
    long[] signedCuts() {
        return signedCuts;
    }

    /**
     * The function that puts rows into buckets: a {@link RangeBucketFunction}, or a {@link HashBucketFunction} for hash.
     *
     * @return the function, one instance shared by every caller
     */
    public BucketFunction bucketFunction() {
        return function;
    }

    /**
     * Rows each bucket is expected to receive, from the statistics the boundaries came from (or any
     * of the same key): the row count between its cut points, plus every null-key row in
     * {@link BucketFunction#NULL_BUCKET}; an even share of the non-null rows for hash.
     *
     * @param stats statistics of the shuffle key, of the boundaries' kind
     * @return a new array of {@link #bucketCount()} estimates
     * @throws IllegalArgumentException when the statistics are of another key kind
     */
    public double[] estimatedRows(final KeyQuantiles stats) {
        if (stats.kind() != kind) {
            throw new IllegalArgumentException("statistics of a " + stats.kind() + " key cannot estimate buckets of a "
                    + kind + " key: pass the statistics of the shuffle key");
        }
        final int n = bucketCount();
        final double[] rows = new double[n];
        if (isRange()) {
            double below = 0;
            for (int b = 0; b < n - 1; b++) {
                final double at = stats.rowsBelow(cuts[b]);
                rows[b] = at - below;
                below = at;
            }
            rows[n - 1] = stats.nonNullCount() - below;
        } else {
            final double share = (double) stats.nonNullCount() / n;
            for (int b = 0; b < n; b++) {
                rows[b] = share;
            }
        }
        rows[BucketFunction.NULL_BUCKET] += stats.nullCount();
        return rows;
    }

    @Override
    public String toString() {
        return "RangeBoundaries[" + topology + ", " + method.label() + ": " + explanation + "]";
    }
}
