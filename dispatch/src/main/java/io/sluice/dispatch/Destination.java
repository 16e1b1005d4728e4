package io.sluice.dispatch;

import io.sluice.shuffle.Topology;

/**
 * Where a batch goes: bucket {@code bucket} of an exchange, which runs on CN {@code cn}, core
 * {@code core} ({@link Topology#cnOf}, {@link Topology#coreOf}).
 */
public record Destination(int cn, int core, int bucket) {
    /** The destination that runs bucket {@code bucket} of {@code topology}. */
    public static Destination of(final Topology topology, final int bucket) {
        return new Destination(topology.cnOf(bucket), topology.coreOf(bucket), bucket);
    }

    @Override
    public String toString() {
        return "CN " + cn + " core " + core + " (bucket " + bucket + ")";
    }
}
