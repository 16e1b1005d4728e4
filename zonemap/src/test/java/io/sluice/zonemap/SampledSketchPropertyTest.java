package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link SampledSketch} on unsorted tables that keep no sketch: it reads at most {@link SampledSketch#MAX_BLOCKS}
 * blocks, and {@link HeavyKeys} over it finds every key whose exact share is well above the share asked for and
 * none well below it.
 */
class SampledSketchPropertyTest {
    private static final int BLOCK_ROWS = 1024;
    /** A sample of 16 blocks of 1024 rows estimates a share to about 0.004 (a standard error at 30%): ten of them. */
    private static final double MARGIN = 0.04;

    @Property(tries = 40)
    void findsTheKeysWellAboveTheShareReadingABoundedSample(@ForAll final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final int blocks = 1 + random.nextInt(120);
        final double[] shares = {0.02 + 0.3 * random.nextDouble(), 0.02 + 0.1 * random.nextDouble(),
                0.01 * random.nextDouble()};
        final long[][] keys = new long[blocks][BLOCK_ROWS];
        final Map<Long, Long> exact = new HashMap<>();
        for (final long[] block : keys) {
            for (int r = 0; r < BLOCK_ROWS; r++) {
                final double u = random.nextDouble();
                final long key = u < shares[0] ? 1 : u < shares[0] + shares[1] ? 2
                        : u < shares[0] + shares[1] + shares[2] ? 3 : 100 + random.nextInt(1_000_000);
                block[r] = key;
                exact.merge(key, 1L, Long::sum);
            }
        }
        final int[] reads = new int[1];
        final BlockTable table = table(keys, reads);
        final double minShare = 0.05;
        final ColumnSketch sample = SampledSketch.of(table, 0);
        assertThat(reads[0]).isLessThanOrEqualTo(SampledSketch.MAX_BLOCKS);

        final Set<Long> found = new HashSet<>();
        for (final HeavyKey h : HeavyKeys.of(TypeKind.INT64, table.zoneMaps(0), sample, minShare)) {
            found.add(h.key());
        }
        final long rows = (long) blocks * BLOCK_ROWS;
        for (final Map.Entry<Long, Long> e : exact.entrySet()) {
            final double share = (double) e.getValue() / rows;
            if (share > minShare + MARGIN) {
                assertThat(found).as("key %d of share %.3f", e.getKey(), share).contains(e.getKey());
            } else if (share < minShare - MARGIN) {
                assertThat(found).as("key %d of share %.3f", e.getKey(), share).doesNotContain(e.getKey());
            }
        }
    }

    private static BlockTable table(final long[][] keys, final int[] reads) {
        final Schema schema = Schema.of(new Field("k", ColumnType.INT64));
        return new BlockTable() {
            @Override
            public String name() {
                return "unsorted";
            }

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public int blockCount() {
                return keys.length;
            }

            @Override
            public int blockRowCount(final int block) {
                return keys[block].length;
            }

            @Override
            public ZoneMap zoneMap(final int block, final int column) {
                return ZoneMap.of(vector(block));
            }

            @Override
            public Block readBlock(final int block, final int... projection) {
                assertThat(projection).containsExactly(0);
                reads[0]++;
                return Block.of(vector(block));
            }

            private LongVector vector(final int block) {
                return new LongVector(ColumnType.INT64, keys[block].clone(), keys[block].length, null);
            }
        };
    }
}
