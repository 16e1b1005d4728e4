package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Blocks whose rows really are uniform (every key of [min, max] repeated the same number of
 * times) make the zonemap model exact, so cut points can be checked against a brute-force count.
 */
class KeyQuantilesPropertyTest {
    /** A block holding each key of {@code [min, min + width)} {@code repeat} times. */
    record UniformBlock(long min, int width, int repeat) {
        ZoneMap zoneMap() {
            return new ZoneMap(min, min + width - 1, 0, width * repeat);
        }

        long rowsBelow(final long key) {
            return repeat * Math.max(0, Math.min(width, key - min));
        }
    }

    @Provide
    Arbitrary<UniformBlock> blocks() {
        return Combinators.combine(Arbitraries.longs().between(-1000, 1000), Arbitraries.integers().between(1, 500),
                Arbitraries.integers().between(1, 5)).as(UniformBlock::new);
    }

    private static long exactBelow(final List<UniformBlock> blocks, final long key) {
        long sum = 0;
        for (final UniformBlock b : blocks) {
            sum += b.rowsBelow(key);
        }
        return sum;
    }

    @Property(tries = 300)
    void cutPointsSplitTheExactRowCountsAtTheirDepth(@ForAll @Size(min = 1, max = 20) final List<@net.jqwik.api.From("blocks") UniformBlock> blocks,
                                                     @ForAll @IntRange(min = 1, max = 60) final int n) {
        final ZoneMap[] zms = new ZoneMap[blocks.size()];
        long total = 0;
        int maxPerKey = 0;
        for (int i = 0; i < zms.length; i++) {
            zms[i] = blocks.get(i).zoneMap();
            total += zms[i].rowCount();
            maxPerKey += blocks.get(i).repeat();
        }
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
        final long[] cuts = q.cutPoints(n);
        assertThat(cuts).hasSize(n);
        for (int i = 0; i < n; i++) {
            final double target = (double) total * (i + 1) / (n + 1);
            // Rounding the cut to a whole key misses the depth by at most half a key's rows.
            assertThat(Math.abs(exactBelow(blocks, cuts[i]) - target)).as("cut %d = %d", i, cuts[i])
                    .isLessThanOrEqualTo(maxPerKey / 2.0 + 1e-6);
            if (i > 0) {
                assertThat(cuts[i]).isGreaterThanOrEqualTo(cuts[i - 1]);
            }
            assertThat(cuts[i]).isBetween(q.min(), q.max() + 1);
        }
    }

    @Property(tries = 200)
    void rowsBelowIsExactForUniformBlocks(@ForAll @Size(min = 1, max = 20) final List<@net.jqwik.api.From("blocks") UniformBlock> blocks,
                                          @ForAll @IntRange(min = -1200, max = 1600) final int key) {
        final ZoneMap[] zms = new ZoneMap[blocks.size()];
        for (int i = 0; i < zms.length; i++) {
            zms[i] = blocks.get(i).zoneMap();
        }
        final double estimate = KeyQuantiles.of(TypeKind.INT64, zms).rowsBelow(key);
        assertThat(estimate).isCloseTo(exactBelow(blocks, key), org.assertj.core.api.Assertions.within(1e-6));
    }

    @Property(tries = 200)
    void overlapAndUniformityStayInTheirRanges(@ForAll @Size(min = 1, max = 20) final List<@net.jqwik.api.From("blocks") UniformBlock> blocks) {
        final ZoneMap[] zms = new ZoneMap[blocks.size()];
        for (int i = 0; i < zms.length; i++) {
            zms[i] = blocks.get(i).zoneMap();
        }
        final KeyQuantiles q = KeyQuantiles.of(TypeKind.INT64, zms);
        assertThat(q.overlap()).isBetween(0.0, 1.0);
        assertThat(q.uniformity()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0 + 1e-12);
    }
}
