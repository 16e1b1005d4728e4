package io.sluice.shuffle;

import org.roaringbitmap.RoaringBitmap;

/**
 * Which CN reads each block of a scan that no colocation pins (a SOURCE fragment): the CN whose block cache
 * holds it when one does, so that a store on object storage is read from local disk rather than fetched again
 * (MatrixOne routes a scan to the CN holding the cache), as long as no CN reads more than its fair share
 * ({@code ceil(blocks / CNs)}) plus {@link #slack(int)}; the other blocks go round-robin (block {@code b} on CN
 * {@code b % cnCount}) while that CN is under its fair share, else to the CN with the fewest.
 *
 * <p>Deterministic: every CN of a query computes the same placement from the same blocks and the same caches,
 * so each reads its own share and no block is read twice or missed.
 */
public final class CachedBlockPlacement {
    private CachedBlockPlacement() {
    }

    /**
     * Blocks a CN may read beyond its fair share to read them from its cache: a tenth of the share, at least one.
     *
     * @param fairShare {@code ceil(blocks / CNs)}
     * @return the slack, 1 or more
     */
    public static int slack(final int fairShare) {
        return Math.max(1, (fairShare + 9) / 10);
    }

    /**
     * Places a scan's blocks on CNs.
     *
     * @param blocks   the blocks to read, ascending, each once
     * @param cnCount  the CNs of the query
     * @param cachedOf per CN the blocks its cache holds (null or shorter: nothing known)
     * @return per CN the blocks it reads; together exactly {@code blocks}
     * @throws IllegalArgumentException when there is no CN
     */
    public static RoaringBitmap[] place(final int[] blocks, final int cnCount, final RoaringBitmap[] cachedOf) {
        if (cnCount < 1) {
            throw new IllegalArgumentException("blocks are placed on 1 CN or more, got " + cnCount);
        }
        final RoaringBitmap[] placed = new RoaringBitmap[cnCount];
        for (int cn = 0; cn < cnCount; cn++) {
            placed[cn] = new RoaringBitmap();
        }
        final int fair = (blocks.length + cnCount - 1) / cnCount;
        final int cap = fair + slack(fair);
        final int[] load = new int[cnCount];
        final boolean[] done = new boolean[blocks.length];
        final int known = cachedOf == null ? 0 : Math.min(cnCount, cachedOf.length);
        for (int i = 0; i < blocks.length; i++) {
            final int block = blocks[i];
            final int home = block % cnCount;
            int best = -1;
            for (int cn = 0; cn < known; cn++) {
                if (cachedOf[cn] == null || load[cn] >= cap || !cachedOf[cn].contains(block)) {
                    continue;
                }
                // The round-robin CN first, so that equal caches leave the placement as it was.
                if (cn == home) {
                    best = cn;
                    break;
                }
                if (best < 0 || load[cn] < load[best]) {
                    best = cn;
                }
            }
            if (best >= 0) {
                placed[best].add(block);
                load[best]++;
                done[i] = true;
            }
        }
        for (int i = 0; i < blocks.length; i++) {
            if (done[i]) {
                continue;
            }
            final int block = blocks[i];
            int to = block % cnCount;
            if (load[to] >= fair) {
                // Some CN is under its fair share: the blocks left would not fit otherwise.
                to = 0;
                for (int cn = 1; cn < cnCount; cn++) {
                    if (load[cn] < load[to]) {
                        to = cn;
                    }
                }
            }
            placed[to].add(block);
            load[to]++;
        }
        return placed;
    }
}
