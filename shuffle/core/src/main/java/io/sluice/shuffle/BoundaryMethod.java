package io.sluice.shuffle;

import java.util.Locale;

/** How a shuffle's bucket boundaries were chosen. */
public enum BoundaryMethod {
    /** Equal-width ranges between the key's min and max: the key is uniform enough. */
    RANGE_UNIFORM,
    /** Ranges at the key's equi-depth quantiles, estimated from zonemaps: the key is skewed. */
    RANGE_QUANTILE,
    /** Ranges at cut points a caller passed in. */
    RANGE_GIVEN,
    /** No ranges: a hash of the key picks the bucket (see {@link HashReason} for why). */
    HASH;

    /**
     * Whether buckets are key ranges (and so can colocate).
     *
     * @return true for every method but {@link #HASH}
     */
    public boolean isRange() {
        return this != HASH;
    }

    /**
     * The name shown to users: {@code range-uniform}, {@code range-quantile}, {@code range-given}, {@code hash}.
     *
     * @return the constant's name in lower case, {@code _} written as {@code -}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
