package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A shuffle join keeps a range partitioning its sides already come in (seed 001's PKEY): both sides bucketed
 * alike move nothing, one side bucketed keeps its buckets and only the other side moves (or is read by colocated
 * scans of those buckets when stored in key order), and the planned shuffle stands when the rule does not apply.
 */
class DeterminePartitionReuseTest {
    private static final Topology CLUSTER = new Topology(2, 2);
    private static final RangeBoundaries FOUR = RangeBoundaries.of(TypeKind.INT64, new long[] {100, 200, 300}, CLUSTER);
    private static final RangeBoundaries OTHER_FOUR = RangeBoundaries.of(TypeKind.INT64, new long[] {10, 20, 30},
            CLUSTER);
    private static final StrategyConfig AUTO = StrategyConfig.defaults().withStrategy(Strategy.AUTO)
            .withPartitionReuse(true);
    private static final LocalShuffle PLANNED = LocalShuffle.of(Distribution.SHUFFLE_RANGE,
            DistributionReason.LARGE_BUILD, "planned without regard to the inputs", 1, 2);

    private static LocalShuffle decide(final LocalShuffle planned, final Partitioning probe,
                                       final Partitioning build, final StrategyConfig config,
                                       final boolean buildStoredByKey) {
        final ZonemapOnlyTable p = new ZonemapOnlyTable("p", 40, false);
        final ZonemapOnlyTable b = new ZonemapOnlyTable("b", 10, buildStoredByKey);
        final Catalog catalog = Map.<String, BlockTable>of("p", p, "b", b)::get;
        final Plan plan = Plan.scan("p", "kp", "p_v").join(JoinType.INNER, Plan.scan("b", "kb", "b_v"),
                List.of("kp"), List.of("kb"));
        return DeterminePartitionReuse.decide((PlanNode.Join) plan.node(), planned, probe, build, config,
                new PlanStats(catalog));
    }

    private static Partitioning rangeOn(final String column, final RangeBoundaries boundaries) {
        return Partitioning.range(Set.of(column), boundaries);
    }

    @Test
    void bothSidesBucketedAlikeMoveNothing() {
        final LocalShuffle how = decide(PLANNED, rangeOn("kp", FOUR), rangeOn("kb", FOUR), AUTO, false);
        assertThat(how.choice()).isEqualTo(Distribution.REUSE_SHUFFLE);
        assertThat(how.code()).isEqualTo(DistributionReason.BOTH_SIDES_PARTITIONED);
        assertThat(how.kept()).isEqualTo(LocalShuffle.Kept.BOTH);
        assertThat(how.numbers()).containsExactly(4L);
        assertThat(how.boundaries()).isSameAs(FOUR);
    }

    @Test
    void aBucketedProbeSideKeepsItsBucketsAndTheBuildSideMovesToThem() {
        final LocalShuffle how = decide(PLANNED, rangeOn("kp", FOUR), null, AUTO, false);
        assertThat(how.choice()).isEqualTo(Distribution.PKEY);
        assertThat(how.code()).isEqualTo(DistributionReason.ONE_SIDE_PARTITIONED);
        assertThat(how.kept()).isEqualTo(LocalShuffle.Kept.PROBE);
        assertThat(how.colocatedScan()).isFalse();
        assertThat(how.boundaries()).isSameAs(FOUR);
        assertThat(how.rangeKey()).isEqualTo("kp");
    }

    @Test
    void aBuildSideStoredByItsKeyIsReadByColocatedScansOfTheKeptBuckets() {
        final LocalShuffle how = decide(PLANNED, rangeOn("kp", FOUR), null, AUTO, true);
        assertThat(how.choice()).isEqualTo(Distribution.PKEY);
        assertThat(how.colocatedScan()).isTrue();
    }

    @Test
    void aBucketedBuildSideKeepsItsBucketsWhenTheProbeSideHasNone() {
        final LocalShuffle how = decide(PLANNED, null, rangeOn("kb", FOUR), AUTO, false);
        assertThat(how.choice()).isEqualTo(Distribution.PKEY);
        assertThat(how.kept()).isEqualTo(LocalShuffle.Kept.BUILD);
    }

    @Test
    void sidesBucketedDifferentlyKeepTheLargerSidesBuckets() {
        // p holds 40 blocks, b 10 of the same width: the probe side is the larger
        final LocalShuffle how = decide(PLANNED, rangeOn("kp", FOUR), rangeOn("kb", OTHER_FOUR), AUTO, false);
        assertThat(how.kept()).isEqualTo(LocalShuffle.Kept.PROBE);
        assertThat(how.boundaries()).isSameAs(FOUR);
    }

    @Test
    void theRuleLeavesThePlannedShuffleWhenOffForcedToHashNotAShuffleOrOnAnotherKey() {
        final Partitioning probe = rangeOn("kp", FOUR);
        assertThat(decide(PLANNED, probe, null, AUTO.withPartitionReuse(false), false)).isSameAs(PLANNED);
        assertThat(decide(PLANNED, probe, null, AUTO.withStrategy(Strategy.SHUFFLE_HASH), false)).isSameAs(PLANNED);
        final LocalShuffle broadcast = LocalShuffle.of(Distribution.BROADCAST, DistributionReason.SMALL_BUILD,
                "small build", 1, 2);
        assertThat(decide(broadcast, probe, null, AUTO, false)).isSameAs(broadcast);
        assertThat(decide(PLANNED, rangeOn("p_v", FOUR), null, AUTO, false)).isSameAs(PLANNED);
        assertThat(decide(PLANNED, Partitioning.hash(List.of("kp")), null, AUTO, false)).isSameAs(PLANNED);
    }
}
