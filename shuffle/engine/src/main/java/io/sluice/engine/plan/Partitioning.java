package io.sluice.engine.plan;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.shuffle.RangeBoundaries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shuffle a node's rows already come bucketed by, one bucket per morsel, so that an operator above
 * needs no new exchange to get them so (a delivered distribution, in Trino's words).
 *
 * @param slots      per shuffle key, the columns holding its values (a join's probe and build keys are equal)
 * @param boundaries the range buckets for a range shuffle on the one slot's key; null for a hash shuffle
 *                   on all slots
 */
record Partitioning(List<Set<String>> slots, RangeBoundaries boundaries) {
    Partitioning {
        final List<Set<String>> copy = new ArrayList<>();
        for (final Set<String> slot : slots) {
            copy.add(Set.copyOf(slot));
        }
        slots = List.copyOf(copy);
        if (boundaries != null && slots.size() != 1) {
            throw new IllegalArgumentException("a range partitioning has one key, got " + slots);
        }
    }

    /** Rows range-bucketed by {@code boundaries} on a key whose values these columns hold. */
    static Partitioning range(final Set<String> slot, final RangeBoundaries boundaries) {
        return new Partitioning(List.of(slot), boundaries);
    }

    /** Rows hash-bucketed on these key columns together. */
    static Partitioning hash(final List<String> keys) {
        final List<Set<String>> slots = new ArrayList<>();
        for (final String k : keys) {
            slots.add(Set.of(k));
        }
        return new Partitioning(slots, null);
    }

    /** The same buckets after a projection: each slot keeps the columns passed on unchanged; null if one loses all. */
    Partitioning renamed(final List<NamedExpr> items) {
        final List<Set<String>> out = new ArrayList<>();
        for (final Set<String> slot : slots) {
            final Set<String> kept = new HashSet<>();
            for (final NamedExpr item : items) {
                if (item.expr() instanceof ColumnRef r && slot.contains(r.name())) {
                    kept.add(item.name());
                }
            }
            if (kept.isEmpty()) {
                return null;
            }
            out.add(kept);
        }
        return new Partitioning(out, boundaries);
    }

    /** The same buckets with one more column holding the values of the {@code slot}-th key. */
    Partitioning withEqual(final int slot, final String column) {
        final List<Set<String>> out = new ArrayList<>(slots);
        final Set<String> widened = new HashSet<>(slots.get(slot));
        widened.add(column);
        out.set(slot, widened);
        return new Partitioning(out, boundaries);
    }

    /** Whether the rows are range-bucketed on the values of {@code column}. */
    boolean rangeOn(final String column) {
        return boundaries != null && slots.get(0).contains(column);
    }

    /** Whether both are range partitionings into the same buckets (same topology, key kind and cut points). */
    boolean sameBuckets(final Partitioning other) {
        return boundaries != null && other.boundaries != null
                && boundaries.topology().equals(other.boundaries.topology())
                && boundaries.kind() == other.boundaries.kind()
                && Arrays.equals(boundaries.cutPoints(), other.boundaries.cutPoints());
    }

    @Override
    public String toString() {
        return (boundaries == null ? "hash on " : "range on ") + slots;
    }
}
