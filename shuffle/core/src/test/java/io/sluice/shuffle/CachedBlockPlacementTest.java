package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * A scan's blocks placed by what the CNs' caches hold: each block read exactly once, no CN over its fair share plus
 * the slack, a cached block read where it is cached unless every CN caching it is full, and without caches the
 * round-robin placement.
 */
class CachedBlockPlacementTest {
    /** The blocks a scan reads (of {@code tableBlocks}) and what each CN caches. */
    record Case(int cnCount, int[] blocks, RoaringBitmap[] cached) {
    }

    @Provide
    Arbitrary<Case> cases() {
        return Combinators.combine(Arbitraries.integers().between(1, 6), Arbitraries.integers().between(0, 120),
                        Arbitraries.longs(), Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1))
                .as((cns, tableBlocks, seed, keptShare, cachedShare) -> {
                    final java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                    final List<Integer> kept = new ArrayList<>();
                    for (int b = 0; b < tableBlocks; b++) {
                        if (random.nextDouble() < keptShare) {
                            kept.add(b);
                        }
                    }
                    final RoaringBitmap[] cached = new RoaringBitmap[cns];
                    for (int cn = 0; cn < cns; cn++) {
                        cached[cn] = random.nextInt(5) == 0 ? null : new RoaringBitmap();
                    }
                    for (int b = 0; b < tableBlocks; b++) {
                        // Mostly on one CN (as an earlier query left them), sometimes on two.
                        for (int copies = random.nextInt(3); copies > 0; copies--) {
                            final int cn = random.nextInt(cns);
                            if (cached[cn] != null && random.nextDouble() < cachedShare) {
                                cached[cn].add(b);
                            }
                        }
                    }
                    return new Case(cns, kept.stream().mapToInt(Integer::intValue).toArray(), cached);
                });
    }

    private static int fair(final Case c) {
        return (c.blocks().length + c.cnCount() - 1) / c.cnCount();
    }

    @Property
    void everyBlockIsReadExactlyOnceAndNoCnReadsMoreThanItsFairSharePlusTheSlack(@ForAll("cases") final Case c) {
        final RoaringBitmap[] placed = CachedBlockPlacement.place(c.blocks(), c.cnCount(), c.cached());
        assertThat(placed).hasSize(c.cnCount());
        final RoaringBitmap all = new RoaringBitmap();
        long total = 0;
        final int cap = fair(c) + CachedBlockPlacement.slack(fair(c));
        for (final RoaringBitmap p : placed) {
            all.or(p);
            total += p.getCardinality();
            assertThat(p.getCardinality()).as("blocks of one CN, fair share %d", fair(c)).isLessThanOrEqualTo(cap);
        }
        assertThat(total).as("no block read twice").isEqualTo(c.blocks().length);
        assertThat(all.toArray()).containsExactly(c.blocks());
    }

    @Property
    void aCachedBlockIsReadElsewhereOnlyWhenEveryCnCachingItIsFull(@ForAll("cases") final Case c) {
        final RoaringBitmap[] placed = CachedBlockPlacement.place(c.blocks(), c.cnCount(), c.cached());
        final int cap = fair(c) + CachedBlockPlacement.slack(fair(c));
        for (int cn = 0; cn < c.cnCount(); cn++) {
            for (final int block : placed[cn]) {
                if (c.cached()[cn] != null && c.cached()[cn].contains(block)) {
                    continue;
                }
                for (int other = 0; other < c.cnCount(); other++) {
                    if (c.cached()[other] != null && c.cached()[other].contains(block)) {
                        assertThat(placed[other].getCardinality()).as("CN %d caches block %d read on CN %d", other,
                                block, cn).isEqualTo(cap);
                    }
                }
            }
        }
    }

    @Property
    void withoutCachesEveryBlockOfATableIsReadRoundRobin(@ForAll("cns") final int cnCount,
                                                         @ForAll("sizes") final int blocks) {
        final int[] all = new int[blocks];
        for (int b = 0; b < blocks; b++) {
            all[b] = b;
        }
        final RoaringBitmap[] placed = CachedBlockPlacement.place(all, cnCount, null);
        for (int b = 0; b < blocks; b++) {
            assertThat(placed[b % cnCount].contains(b)).as("block %d on CN %d", b, b % cnCount).isTrue();
        }
    }

    @Provide
    Arbitrary<Integer> cns() {
        return Arbitraries.integers().between(1, 6);
    }

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(0, 200);
    }

    @Test
    void blocksAColocatedScanLeftInTheCachesAreReadWhereTheyAreCachedNotRoundRobin() {
        // A colocated scan of 8 blocks on 3 CNs left blocks 0-2, 3-5 and 6-7 in the CNs' caches; round-robin
        // would read 6 of the 8 on another CN.
        final RoaringBitmap[] cached = {RoaringBitmap.bitmapOf(0, 1, 2), RoaringBitmap.bitmapOf(3, 4, 5),
            RoaringBitmap.bitmapOf(6, 7)};
        final RoaringBitmap[] placed = CachedBlockPlacement.place(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 3, cached);
        assertThat(placed).containsExactly(cached);
    }

    @Test
    void blocksAllCachedOnOneCnAreSpreadOnceThatCnHasItsShareAndTheSlack() {
        final RoaringBitmap everything = RoaringBitmap.bitmapOfRange(0, 30);
        final int[] blocks = everything.toArray();
        final RoaringBitmap[] placed = CachedBlockPlacement.place(blocks, 3,
                new RoaringBitmap[] {everything, null, null});
        // A fair share of 10 plus a slack of 1 on the CN caching them; the rest round-robin on the others.
        assertThat(placed[0].toArray()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(placed[1].getCardinality() + placed[2].getCardinality()).isEqualTo(19);
        assertThat(placed[1].getCardinality()).isLessThanOrEqualTo(10);
        assertThat(placed[2].getCardinality()).isLessThanOrEqualTo(10);
    }

    @Test
    void aPlacementNeedsACn() {
        assertThatThrownBy(() -> CachedBlockPlacement.place(new int[] {0}, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("blocks are placed on 1 CN or more, got 0");
    }
}
