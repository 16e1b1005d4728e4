package io.sluice.zonemap;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The heavy keys of one column, read from its statistics with no scan: the frequent items of its sketch
 * and its zonemap point masses (blocks whose keys are all one value, {@code min == max}). A key is heavy
 * when its estimated share of the non-null rows is above the share asked for; a planner asks for
 * 1/(2 x buckets) to 1/(8 x buckets), depending on the shuffle (a key of 1/(2 x buckets) fills half a bucket
 * whatever the boundaries).
 */
public final class HeavyKeys {
    private HeavyKeys() {
    }

    /**
     * The column's heavy keys, heaviest first.
     *
     * @param kind     the column's kind
     * @param zoneMaps the column's zonemap in every block
     * @param sketch   the column's sketch, or null when the table keeps none
     * @param minShare the share of the non-null rows a key must exceed, in (0, 1]
     * @return the keys above {@code minShare}, each with the larger of its two estimates; empty when none
     * @throws IllegalArgumentException when {@code minShare} is outside (0, 1] or a zonemap is not valid
     */
    public static List<HeavyKey> of(final TypeKind kind, final ZoneMap[] zoneMaps, final ColumnSketch sketch,
                                    final double minShare) {
        if (!(minShare > 0) || minShare > 1) {
            throw new IllegalArgumentException("a heavy key's share " + minShare + " is not valid: use (0, 1]");
        }
        KeyQuantiles.requireValid(kind, zoneMaps);
        long nonNull = 0;
        final Map<Long, Long> pointMass = new HashMap<>();
        for (final ZoneMap zm : zoneMaps) {
            nonNull += zm.nonNullCount();
            if (zm.hasValues() && zm.min() == zm.max()) {
                pointMass.merge(zm.min(), (long) zm.nonNullCount(), Long::sum);
            }
        }
        final Map<Long, Long> rows = new HashMap<>();
        if (sketch != null && !sketch.isEmpty() && sketch.kind() == kind) {
            for (final HeavyKey h : sketch.heavyKeys(minShare)) {
                rows.put(h.key(), Math.round(h.share() * nonNull));
            }
        }
        for (final Map.Entry<Long, Long> e : pointMass.entrySet()) {
            rows.merge(e.getKey(), e.getValue(), Math::max);
        }
        final List<HeavyKey> heavy = new ArrayList<>();
        if (nonNull == 0) {
            return heavy;
        }
        for (final Map.Entry<Long, Long> e : rows.entrySet()) {
            final double share = (double) e.getValue() / nonNull;
            if (share > minShare) {
                heavy.add(new HeavyKey(e.getKey(), e.getValue(), Math.min(1, share)));
            }
        }
        heavy.sort((a, b) -> a.rows() != b.rows() ? Long.compare(b.rows(), a.rows()) : kind.compareKeys(a.key(), b.key()));
        return heavy;
    }
}
