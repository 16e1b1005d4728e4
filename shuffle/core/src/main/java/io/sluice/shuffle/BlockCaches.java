package io.sluice.shuffle;

import java.util.HashMap;
import java.util.Map;
import org.roaringbitmap.RoaringBitmap;

/**
 * What the block caches of a query's CNs hold, by table: the input of {@link CachedBlockPlacement}. The
 * coordinator gathers it from the CNs' reports and ships it with each query, so that every CN places the same
 * blocks the same way. Immutable.
 */
public final class BlockCaches {
    /** No cache known: every scan that no colocation pins reads round-robin. */
    public static final BlockCaches NONE = new BlockCaches(0, Map.of());

    private final int cnCount;
    private final Map<String, RoaringBitmap[]> byTable;

    private BlockCaches(final int cnCount, final Map<String, RoaringBitmap[]> byTable) {
        this.cnCount = cnCount;
        this.byTable = byTable;
    }

    /**
     * Collects the caches of a query's CNs, one table and CN at a time.
     *
     * @param cnCount the CNs of the query
     * @return an empty builder
     * @throws IllegalArgumentException when there is no CN
     */
    public static Builder builder(final int cnCount) {
        return new Builder(cnCount);
    }

    /**
     * The blocks of {@code table} each CN caches.
     *
     * @param table the table's name
     * @return per CN (by its index in the query) a bitmap, null for a CN that reported none; null when no CN
     *         reported the table
     */
    public RoaringBitmap[] cachedOf(final String table) {
        final RoaringBitmap[] cached = byTable.get(table);
        return cached == null ? null : cached.clone();
    }

    /**
     * The CNs the caches are indexed by.
     *
     * @return the query's CNs, 0 for {@link #NONE}
     */
    public int cnCount() {
        return cnCount;
    }

    @Override
    public String toString() {
        return "BlockCaches[" + cnCount + " CNs, tables " + byTable.keySet() + "]";
    }

    /** Builds a {@link BlockCaches}; not thread-safe. */
    public static final class Builder {
        private final int cnCount;
        private final Map<String, RoaringBitmap[]> byTable = new HashMap<>();

        private Builder(final int cnCount) {
            if (cnCount < 1) {
                throw new IllegalArgumentException("block caches of 1 CN or more, got " + cnCount);
            }
            this.cnCount = cnCount;
        }

        /**
         * Notes that CN {@code cn} caches {@code blocks} of {@code table} (added to what it noted before).
         *
         * @param table  the table's name
         * @param cn     the CN's index in the query
         * @param blocks the blocks its cache holds (copied)
         * @return this builder
         * @throws IllegalArgumentException when the CN is not one of the query's
         */
        public Builder add(final String table, final int cn, final RoaringBitmap blocks) {
            if (cn < 0 || cn >= cnCount) {
                throw new IllegalArgumentException("CN " + cn + " caches blocks of '" + table + "', but the query has"
                        + " CNs 0.." + (cnCount - 1));
            }
            final RoaringBitmap[] cached = byTable.computeIfAbsent(table, t -> new RoaringBitmap[cnCount]);
            cached[cn] = cached[cn] == null ? blocks.clone() : RoaringBitmap.or(cached[cn], blocks);
            return this;
        }

        /**
         * The caches noted.
         *
         * @return {@link #NONE} when none was
         */
        public BlockCaches build() {
            return byTable.isEmpty() ? NONE : new BlockCaches(cnCount, Map.copyOf(byTable));
        }
    }
}
