package io.sluice.engine.plan;

import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.shuffle.BalancedJoinBoundaries;
import io.sluice.shuffle.HeavyKeySet;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import io.sluice.zonemap.HeavyKey;
import io.sluice.zonemap.KeyQuantiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides which keys of a shuffle join are dispatched apart (partial redistribution, partial duplication:
 * Teradata's PRPD, seed 003's hybrid dispatch per key). A probe key holding more than 1/(4 x buckets) of its
 * column's rows would fill a bucket alone whatever the boundaries, or make the ranges around it uneven in build
 * keys; the build rows of that key go to every bucket
 * ({@code ALL_CN}), so its probe rows may go to any: they fill the buckets the other keys left emptiest, the CN
 * that read them first ({@code LOCAL_FIRST}). Every other key goes to its owner bucket, on boundaries planned
 * without the heavy keys that balance both sides ({@link io.sluice.shuffle.BalancedJoinBoundaries}). A hash
 * shuffle, which cannot place a key between boundaries, dispatches apart keys above 1/(8 x buckets).
 *
 * <p>Only where copying build rows is correct: inner, left, semi and anti joins (a build row is never emitted
 * by itself), whose both sides are shuffled (nothing kept, no colocated scan), bucketed on one key column. A
 * key heavy on the build side as well is left to its owner: copying it to every bucket would multiply the
 * rows that carry it.
 */
final class DetermineHeavyKeys {
    /** Most keys dispatched apart (the heaviest): each costs a copy of its build rows per bucket. */
    static final int MAX_KEYS = 256;

    private DetermineHeavyKeys() {
    }

    /**
     * The least share of the rows above which a key is heavy for a range shuffle: 1/(2 x buckets). A lighter key
     * is counted by the quantiles the boundaries are cut at, which give its bucket fewer other keys.
     */
    static double minShare(final Topology topology) {
        return 1.0 / (2 * topology.bucketCount());
    }

    /**
     * The least share of the rows above which a key is heavy for a range shuffle join: 1/(4 x buckets). A key
     * between that and {@link #minShare} fits a bucket, but the ranges holding it must hold fewer other keys, and
     * the build side, which follows the probe's ranges, then gets more rows in the ranges without one (skew-1
     * data of 400 K rows over 20 K keys on 7x2: at best 1.14 of the build's mean). Dispatched apart, such keys
     * cost a copy of their build rows per bucket and leave fewer uneven lumps for the boundaries to cut around,
     * while their probe rows level the buckets ({@link io.sluice.shuffle.BalancedJoinBoundaries}).
     */
    static double minJoinShare(final Topology topology) {
        return 1.0 / (4 * topology.bucketCount());
    }

    /**
     * The least share above which a key is heavy for a hash shuffle: 1/(8 x buckets). A hash puts a key into a
     * bucket that holds a mean bucket's worth of other keys too, so a key of 1/(2 x buckets) would make it 1.5
     * times the mean; above an eighth of a bucket it is dispatched apart.
     */
    static double minHashShare(final Topology topology) {
        return 1.0 / (8 * topology.bucketCount());
    }

    static LocalShuffle decide(final PlanNode.Join join, final LocalShuffle planned, final StrategyConfig config,
                               final PlanStats stats, final Topology topology) {
        if (!config.heavyKeys() || topology.bucketCount() < 2 || planned.kept() != LocalShuffle.Kept.NONE
                || planned.colocatedScan()
                || planned.choice() != Distribution.SHUFFLE_RANGE && planned.choice() != Distribution.SHUFFLE_HASH) {
            return planned;
        }
        final JoinType type = join.type();
        if (type != JoinType.INNER && type != JoinType.LEFT && type != JoinType.SEMI && type != JoinType.ANTI) {
            return planned;
        }
        if (planned.boundaries() == null && join.probeKeys().size() != 1) {
            return planned;
        }
        if (!(join.probeKeys().get(0) instanceof ColumnRef probe) || !(join.buildKeys().get(0) instanceof ColumnRef build)) {
            return planned;
        }
        final boolean hashForced = config.strategy() == Strategy.SHUFFLE_HASH;
        if (!hashForced) {
            final List<HeavyKey> heavy = heavyKeys(join, probe, build, stats, minJoinShare(topology));
            if (!heavy.isEmpty()) {
                final RangeBoundaries rest = stats.boundaries(join.probe(), probe.name(), topology, keys(heavy));
                if (rest != null && rest.isRange()) {
                    final RangeBoundaries both = bothSides(join, probe, build, stats, topology, heavy);
                    return new LocalShuffle(Distribution.SHUFFLE_RANGE, both != null ? both : rest, probe.name(),
                            why(planned, heavy) + "; " + rest.method() + " on the other keys of " + probe.name()
                                    + (both != null ? " and the keys of " + build.name() : ""),
                            LocalShuffle.Kept.NONE, false, planned.code(), planned.numbers(), heavy);
                }
                if (planned.choice() == Distribution.SHUFFLE_RANGE) {
                    // Without the heavy keys the boundaries fell back to hash: keep the planned ones.
                    return new LocalShuffle(planned.choice(), planned.boundaries(), planned.rangeKey(),
                            why(planned, heavy), LocalShuffle.Kept.NONE, false, planned.code(), planned.numbers(),
                            heavy);
                }
            }
        }
        if (planned.choice() != Distribution.SHUFFLE_HASH) {
            return planned;
        }
        final List<HeavyKey> heavy = heavyKeys(join, probe, build, stats, minHashShare(topology));
        return heavy.isEmpty() ? planned : new LocalShuffle(Distribution.SHUFFLE_HASH, null, null, why(planned, heavy),
                LocalShuffle.Kept.NONE, false, planned.code(), planned.numbers(), heavy);
    }

    /**
     * A shuffled group-by whose shuffle key has heavy keys (above 1/(2 x buckets) on ranges, 1/(8 x buckets) on a
     * hash) aggregates partially where its rows are before the shuffle, so that a heavy key sends one partial
     * state per CN to its owner instead of all its rows; range boundaries are planned without the heavy keys.
     * Only for aggregates with partial states ({@link HashAggregate#splittable}).
     */
    static LocalShuffle decideGroup(final PlanNode.Aggregation agg, final LocalShuffle planned,
                                    final StrategyConfig config, final PlanStats stats, final Topology topology) {
        if (!config.heavyKeys() || topology.bucketCount() < 2 || agg.keys().isEmpty()
                || planned.choice() != Distribution.SHUFFLE_RANGE && planned.choice() != Distribution.SHUFFLE_HASH
                || !HashAggregate.splittable(agg.aggregates())) {
            return planned;
        }
        final String column;
        if (planned.boundaries() != null) {
            column = planned.rangeKey();
        } else if (agg.keys().size() == 1 && agg.keys().get(0).expr() instanceof ColumnRef r) {
            column = r.name();
        } else {
            return planned;
        }
        final boolean range = planned.boundaries() != null;
        final List<HeavyKey> found = stats.heavyKeys(agg.input(), column,
                range ? minShare(topology) : minHashShare(topology));
        if (found.isEmpty()) {
            return planned;
        }
        final List<HeavyKey> heavy = found.size() > MAX_KEYS ? found.subList(0, MAX_KEYS) : found;
        final String why = planned.reason() + "; " + describe(heavy) + ": aggregated partially before the shuffle";
        if (range) {
            final RangeBoundaries rest = stats.boundaries(agg.input(), column, topology, keys(heavy));
            if (rest != null && rest.isRange()) {
                return new LocalShuffle(planned.choice(), rest, column, why, LocalShuffle.Kept.NONE, false,
                        planned.code(), planned.numbers(), heavy);
            }
        }
        return new LocalShuffle(planned.choice(), planned.boundaries(), planned.rangeKey(), why, LocalShuffle.Kept.NONE,
                false, planned.code(), planned.numbers(), heavy);
    }

    /** The probe keys above {@code minShare}, heaviest first, less those above it on the build side too. */
    private static List<HeavyKey> heavyKeys(final PlanNode.Join join, final ColumnRef probe, final ColumnRef build,
                                            final PlanStats stats, final double minShare) {
        final Set<Long> heavyOnBuild = new HashSet<>();
        for (final HeavyKey h : stats.heavyKeys(join.build(), build.name(), minShare)) {
            heavyOnBuild.add(h.key());
        }
        final List<HeavyKey> heavy = new ArrayList<>();
        for (final HeavyKey h : stats.heavyKeys(join.probe(), probe.name(), minShare)) {
            if (!heavyOnBuild.contains(h.key()) && heavy.size() < MAX_KEYS) {
                heavy.add(h);
            }
        }
        return heavy;
    }

    /**
     * Boundaries that balance the build side too ({@link BalancedJoinBoundaries}): the build follows the probe's
     * ranges, and the probe's quantiles alone make them as uneven in build keys as the probe's other keys are
     * uneven over the key space. Null when the build key is computed or no such cut points fit.
     */
    private static RangeBoundaries bothSides(final PlanNode.Join join, final ColumnRef probe, final ColumnRef build,
                                             final PlanStats stats, final Topology topology,
                                             final List<HeavyKey> heavy) {
        final long[] excluded = keys(heavy);
        final KeyQuantiles probeRest = stats.quantiles(join.probe(), probe.name(), excluded);
        final KeyQuantiles buildRest = stats.quantiles(join.build(), build.name(), excluded);
        if (probeRest == null || buildRest == null) {
            return null;
        }
        long heavyRows = 0;
        for (final HeavyKey h : heavy) {
            heavyRows += h.rows();
        }
        return BalancedJoinBoundaries.plan(probeRest, heavyRows, buildRest, topology);
    }

    private static long[] keys(final List<HeavyKey> heavy) {
        final long[] keys = new long[heavy.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = heavy.get(i).key();
        }
        return keys;
    }

    private static String why(final LocalShuffle planned, final List<HeavyKey> heavy) {
        return planned.reason() + "; " + describe(heavy) + " filling the emptiest buckets (their CNs' first), their"
                + " build rows copied to every bucket";
    }

    /** The heavy keys with their shares, e.g. {@code heavy keys 42 (38.1%), 7 (9.5%)}: one EXPLAIN annotation. */
    static String describe(final List<HeavyKey> heavy) {
        final StringBuilder sb = new StringBuilder(heavy.size() == 1 ? "heavy key " : "heavy keys ");
        for (int i = 0; i < heavy.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(heavy.get(i).key())
                    .append(String.format(Locale.ROOT, " (%.1f%%)", 100 * heavy.get(i).share()));
        }
        return sb.toString();
    }
}
