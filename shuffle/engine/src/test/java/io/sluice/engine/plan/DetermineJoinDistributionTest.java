package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.ShuffleOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * AUTO's join distribution from zonemap statistics alone: on one CN by rows and colocation (a
 * shared table for a small build side, a moving shuffle only for a large one), on several CNs by the
 * bytes each choice moves across CNs — so the width of the rows, not only their number, decides.
 */
class DetermineJoinDistributionTest {
    private static final int BLOCK_ROWS = Block.MAX_ROWS;
    private static final long MIN_BUILD = 120_000;
    private static final long MOVING_MIN_BUILD = 2_000_000;
    private static final StrategyConfig AUTO = new StrategyConfig(Strategy.AUTO, MIN_BUILD, MOVING_MIN_BUILD, 50_000,
            ShuffleOptions.defaults());
    private static final Set<Distribution> MOVING = Set.of(Distribution.SHUFFLE_RANGE, Distribution.SHUFFLE_HASH);

    /** A table known only by its zonemaps: {@code blocks} full blocks of int64 columns, key first. */
    private record StatsOnlyTable(String name, int blocks, int columns, boolean sortedByKey) implements BlockTable {
        @Override
        public Schema schema() {
            final List<Field> fields = new ArrayList<>();
            for (int c = 0; c < columns; c++) {
                fields.add(new Field(c == 0 ? "k" + name : name + "_v" + c, ColumnType.INT64));
            }
            return new Schema(fields);
        }

        @Override
        public int blockCount() {
            return blocks;
        }

        @Override
        public int blockRowCount(final int block) {
            return BLOCK_ROWS;
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            final long rows = (long) blocks * BLOCK_ROWS;
            return sortedByKey && column == 0
                    ? new ZoneMap((long) block * BLOCK_ROWS, (long) (block + 1) * BLOCK_ROWS - 1, 0, BLOCK_ROWS)
                    : new ZoneMap(0, rows - 1, 0, BLOCK_ROWS);
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            throw new UnsupportedOperationException("planning reads zonemaps only");
        }

        @Override
        public String sortKey() {
            return sortedByKey ? "k" + name : null;
        }
    }

    private static Distribution decide(final StatsOnlyTable probe, final StatsOnlyTable build, final int cns) {
        return decision(probe, build, cns).choice();
    }

    private static LocalShuffle decision(final StatsOnlyTable probe, final StatsOnlyTable build, final int cns) {
        final Catalog catalog = Map.of(probe.name(), probe, build.name(), build)::get;
        final Plan plan = Plan.scan(probe.name(), probe.schema().names().toArray(String[]::new))
                .join(JoinType.INNER, Plan.scan(build.name(), build.schema().names().toArray(String[]::new)),
                        List.of("k" + probe.name()), List.of("k" + build.name()));
        final LocalShuffle how = DetermineJoinDistribution.decide((PlanNode.Join) plan.node(), AUTO,
                new PlanStats(catalog), new Topology(cns, 2));
        assertThat(how.reason()).isNotBlank();
        return how;
    }

    @Test
    void aSmallBuildSideSaysSoWithItsRowsAndTheThreshold() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(1_000_000), 2, false);
        final StatsOnlyTable build = new StatsOnlyTable("b", 7, 2, false);
        final LocalShuffle how = decision(probe, build, 3);
        assertThat(how.code()).isEqualTo(DistributionReason.SMALL_BUILD);
        assertThat(how.numbers()).containsExactly(7L * BLOCK_ROWS, MIN_BUILD);
    }

    @Test
    void aColocatedJoinNamesTheLargeBuildAndCarriesItsBoundaries() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(1_000_000), 2, true);
        final StatsOnlyTable build = new StatsOnlyTable("b", 30, 2, false);
        final LocalShuffle how = decision(probe, build, 3);
        assertThat(how.code()).isEqualTo(DistributionReason.LARGE_BUILD);
        assertThat(how.numbers()).containsExactly(30L * BLOCK_ROWS, MIN_BUILD);
        assertThat(how.rangeKey()).isEqualTo("kp");
        assertThat(how.boundaries().bucketCount()).isEqualTo(6);
    }

    @Test
    void copiesThatMoveFewerBytesSayHowManyBytesEachWayWouldMove() {
        final long buildRows = 4 * MIN_BUILD;
        final StatsOnlyTable build = new StatsOnlyTable("b", blocksFor(buildRows), 1, false);
        final StatsOnlyTable wideProbe = new StatsOnlyTable("p", blocksFor(buildRows * 3 / 2), 5, false);
        final LocalShuffle how = decision(wideProbe, build, 3);
        assertThat(how.choice()).isEqualTo(Distribution.BROADCAST);
        assertThat(how.code()).isEqualTo(DistributionReason.COPIES_MOVE_FEWER_BYTES);
        final long[] n = how.numbers();
        assertThat(n).hasSize(5);
        assertThat(n[1]).as("bytes the copies move").isLessThanOrEqualTo(n[2]);
        assertThat(n[3]).as("CNs").isEqualTo(3);
    }

    @Test
    void aForcedStrategyIsTheReason() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(1_000_000), 2, false);
        final StatsOnlyTable build = new StatsOnlyTable("b", 7, 2, false);
        final Catalog catalog = Map.of(probe.name(), probe, build.name(), build)::get;
        final Plan plan = Plan.scan("p", "kp").join(JoinType.INNER, Plan.scan("b", "kb"), List.of("kp"), List.of("kb"));
        final LocalShuffle how = DetermineJoinDistribution.decide((PlanNode.Join) plan.node(),
                AUTO.withStrategy(Strategy.SHUFFLE_HASH), new PlanStats(catalog), new Topology(3, 2));
        assertThat(how.choice()).isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(how.code()).isEqualTo(DistributionReason.FORCED);
    }

    private static int blocksFor(final long rows) {
        return (int) ((rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    }

    @Test
    void aSmallBuildSideIsBroadcastOnAnyNumberOfCns() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(1_000_000), 2, false);
        final StatsOnlyTable build = new StatsOnlyTable("b", blocksFor(MIN_BUILD / 2), 2, false);
        for (final int cns : new int[] {1, 3, 7}) {
            assertThat(decide(probe, build, cns)).isEqualTo(Distribution.BROADCAST);
        }
    }

    @Test
    void aProbeSideStoredByTheKeyColocatesOnAnyNumberOfCns() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(1_000_000), 2, true);
        final StatsOnlyTable build = new StatsOnlyTable("b", blocksFor(2 * MIN_BUILD), 2, false);
        for (final int cns : new int[] {1, 3, 7}) {
            assertThat(decide(probe, build, cns)).isEqualTo(Distribution.COLOCATE);
        }
    }

    @Test
    void onOneCnAShuffleThatMovesEveryProbeRowWaitsForALargeBuildSide() {
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(10_000_000), 2, false);
        assertThat(decide(probe, new StatsOnlyTable("b", blocksFor(2 * MIN_BUILD), 2, false), 1))
                .isEqualTo(Distribution.BROADCAST);
        assertThat(decide(probe, new StatsOnlyTable("b", blocksFor(2 * MOVING_MIN_BUILD), 2, false), 1))
                .isIn(MOVING);
    }

    @Test
    void onSeveralCnsTheChoiceMovingFewerBytesWinsAndRowWidthsCount() {
        // Build B rows, probe 1.5 B rows on 3 CNs: by rows a shuffle moves (1.5 B + B) 2/3 = 1.67 B, copies 2 B.
        // One int64 column each: bytes follow rows.
        final long buildRows = 4 * MIN_BUILD;
        final StatsOnlyTable build = new StatsOnlyTable("b", blocksFor(buildRows), 1, false);
        final StatsOnlyTable narrowProbe = new StatsOnlyTable("p", blocksFor(buildRows * 3 / 2), 1, false);
        assertThat(decide(narrowProbe, build, 3)).isIn(MOVING);
        // The same rows, 5 columns wide on the probe side: its bytes make a shuffle dearer than copies of the build.
        final StatsOnlyTable wideProbe = new StatsOnlyTable("p", blocksFor(buildRows * 3 / 2), 5, false);
        assertThat(decide(wideProbe, build, 3)).isEqualTo(Distribution.BROADCAST);
        // More CNs make copies dearer: probe bytes 7.5 x the build's; on C CNs copies move (C - 1) build bytes, a
        // shuffle (7.5 + 1)(C - 1)/C, so a shuffle wins from C = 9.
        assertThat(decide(wideProbe, build, 7)).isEqualTo(Distribution.BROADCAST);
        assertThat(decide(wideProbe, build, 9)).isIn(MOVING);
    }

    @Test
    void copiesOfALargeBuildSideGoHybridSoEachCoreBuildsItsOwnKeys() {
        final StatsOnlyTable build = new StatsOnlyTable("b", blocksFor(2 * MOVING_MIN_BUILD), 1, false);
        final StatsOnlyTable probe = new StatsOnlyTable("p", blocksFor(10 * MOVING_MIN_BUILD), 2, false);
        assertThat(decide(probe, build, 3)).isEqualTo(Distribution.HYBRID);
        assertThat(decide(probe, build, 1)).isIn(MOVING);
    }
}
