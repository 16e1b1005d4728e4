package io.sluice.shuffle.operator;

import java.util.Locale;

/**
 * Settings of a shuffle operator, with documented defaults that system properties override.
 *
 * @param poolBytes the budget of the bucket buffer pool in bytes: all buffers together, filling,
 *                  emitted but not yet released, or idle; at least one buffer for the input's
 *                  columns (8192 rows of each); default {@value #DEFAULT_POOL_BYTES}, property
 *                  {@value #POOL_BYTES_PROPERTY}
 * @param routing   when a batch may be routed whole; default {@link WholeBatchRouting#WHEN_PROVEN},
 *                  property {@value #ROUTING_PROPERTY} ({@code when_proven}, {@code never}, {@code required})
 */
public record ShuffleOptions(long poolBytes, WholeBatchRouting routing) {
    /** 64 MiB: 64 buckets of 8192 rows of a dozen 8-byte columns, with room for emitted batches. */
    public static final long DEFAULT_POOL_BYTES = 64L << 20;
    /** System property overriding {@link #poolBytes()}. */
    public static final String POOL_BYTES_PROPERTY = "sluice.shuffle.poolBytes";
    /** System property overriding {@link #routing()}. */
    public static final String ROUTING_PROPERTY = "sluice.shuffle.wholeBatchRouting";

    /**
     * Checks the budget and the routing.
     *
     * @param poolBytes the budget of the bucket buffer pool in bytes, positive (the operator also
     *                  needs at least {@link ShuffleOperator#minimumPoolBytes} for its input)
     * @param routing   when a batch may be routed whole, not null
     * @throws IllegalArgumentException when {@code poolBytes} is not positive or {@code routing} is null
     */
    public ShuffleOptions {
        if (poolBytes <= 0) {
            throw new IllegalArgumentException("shuffle pool budget must be positive, got " + poolBytes + " bytes");
        }
        if (routing == null) {
            throw new IllegalArgumentException("whole-batch routing must be given: use WHEN_PROVEN, NEVER or REQUIRED");
        }
    }

    /**
     * The defaults, overridden by the system properties that are set.
     *
     * @return {@value #DEFAULT_POOL_BYTES} bytes and {@link WholeBatchRouting#WHEN_PROVEN}, or what
     *         {@value #POOL_BYTES_PROPERTY} and {@value #ROUTING_PROPERTY} say
     * @throws IllegalArgumentException when a property is set to something that is not a number of
     *                                  bytes or a routing name; the message names the property
     */
    public static ShuffleOptions defaults() {
        final String bytes = System.getProperty(POOL_BYTES_PROPERTY);
        final String routing = System.getProperty(ROUTING_PROPERTY);
        long poolBytes = DEFAULT_POOL_BYTES;
        if (bytes != null) {
            try {
                poolBytes = Long.parseLong(bytes.trim());
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException("system property " + POOL_BYTES_PROPERTY + "='" + bytes
                        + "' is not a number of bytes", e);
            }
        }
        WholeBatchRouting mode = WholeBatchRouting.WHEN_PROVEN;
        if (routing != null) {
            try {
                mode = WholeBatchRouting.valueOf(routing.trim().toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("system property " + ROUTING_PROPERTY + "='" + routing
                        + "' is not valid: use when_proven, never or required", e);
            }
        }
        return new ShuffleOptions(poolBytes, mode);
    }

    /**
     * These options with another pool budget.
     *
     * @param bytes the budget of the bucket buffer pool in bytes, positive
     * @return new options, the routing unchanged
     * @throws IllegalArgumentException when {@code bytes} is not positive
     */
    public ShuffleOptions withPoolBytes(final long bytes) {
        return new ShuffleOptions(bytes, routing);
    }

    /**
     * These options with another routing.
     *
     * @param mode when a batch may be routed whole, not null
     * @return new options, the pool budget unchanged
     * @throws IllegalArgumentException when {@code mode} is null
     */
    public ShuffleOptions withRouting(final WholeBatchRouting mode) {
        return new ShuffleOptions(poolBytes, mode);
    }
}
