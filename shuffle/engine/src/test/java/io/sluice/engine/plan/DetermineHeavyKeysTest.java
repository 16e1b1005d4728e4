package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.Expr;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import io.sluice.zonemap.HeavyKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Heavy keys decided with the plan: a probe key whose zonemap point masses hold more than 1/(2 x buckets) of
 * the rows is dispatched apart, with its share; the boundaries balance the other keys; the decided plan ships
 * the keys; and only joins where copying build rows is correct get them.
 */
class DetermineHeavyKeysTest {
    private static final int ROWS = Block.MAX_ROWS;
    private static final long HEAVY = 777_777;
    private static final long DOMAIN = 1_200_000;
    private static final Topology THREE_BY_TWO = new Topology(3, 2);

    /**
     * A table known by its zonemaps: its first {@code heavyBlocks} blocks hold one key, {@link #HEAVY}; the
     * others split [0, DOMAIN) into equal, disjoint ranges.
     */
    private record PointMassTable(String name, int blocks, int heavyBlocks) implements BlockTable {
        @Override
        public Schema schema() {
            return new Schema(List.of(new Field("k" + name, ColumnType.INT64), new Field(name + "_v", ColumnType.INT64)));
        }

        @Override
        public int blockCount() {
            return blocks;
        }

        @Override
        public int blockRowCount(final int block) {
            return ROWS;
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            if (column == 0 && block < heavyBlocks) {
                return new ZoneMap(HEAVY, HEAVY, 0, ROWS);
            }
            final int spread = blocks - heavyBlocks;
            final int i = column == 0 ? block - heavyBlocks : 0;
            final long width = column == 0 ? DOMAIN / spread : DOMAIN * spread;
            return new ZoneMap(i * width, (i + 1) * width - 1, 0, ROWS);
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            throw new UnsupportedOperationException("planning reads zonemaps only");
        }

        @Override
        public String sortKey() {
            return null;
        }
    }

    private static final PointMassTable PROBE = new PointMassTable("p", 40, 12);
    private static final PointMassTable BUILD = new PointMassTable("b", 20, 0);

    private static Plan join(final JoinType type, final PointMassTable probe, final PointMassTable build) {
        return Plan.scan(probe.name(), "k" + probe.name(), probe.name() + "_v")
                .join(type, Plan.scan(build.name(), "k" + build.name(), build.name() + "_v"),
                        List.of("k" + probe.name()), List.of("k" + build.name()));
    }

    private static DecidedPlan decide(final Plan plan, final Strategy strategy, final boolean heavyKeys,
                                      final PointMassTable... tables) {
        final Map<String, BlockTable> byName = new HashMap<>();
        for (final PointMassTable t : tables) {
            byName.put(t.name(), t);
        }
        final Catalog catalog = byName::get;
        return PhysicalPlanner.plan(plan, StrategyConfig.defaults().withStrategy(strategy).withHeavyKeys(heavyKeys),
                catalog, THREE_BY_TWO, true);
    }

    private static LocalShuffle joinDecision(final DecidedPlan decided) {
        for (final PlanNode n : PlanWalk.preOrder(decided.root())) {
            if (n instanceof PlanNode.Join) {
                return decided.decisionOf(n);
            }
        }
        throw new AssertionError("no join in " + decided.plan());
    }

    @Test
    void aKeyHoldingThirtyPercentOfTheProbeRowsIsHeavyWithItsShare() {
        final LocalShuffle how = joinDecision(decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_RANGE, true,
                PROBE, BUILD));
        assertThat(how.heavyKeys()).extracting(HeavyKey::key).containsExactly(HEAVY);
        assertThat(how.heavyKeys().get(0).share()).isEqualTo(12.0 / 40);
        assertThat(how.heavyKeys().get(0).rows()).isEqualTo(12L * ROWS);
        assertThat(how.choice()).isEqualTo(Distribution.SHUFFLE_RANGE);
    }

    @Test
    void theBoundariesSplitTheOtherKeysEvenlyOnlyWhenTheHeavyKeyIsLeftOut() {
        final long[] without = joinDecision(decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_RANGE, true,
                PROBE, BUILD)).boundaries().cutPoints();
        final long[] with = joinDecision(decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_RANGE, false,
                PROBE, BUILD)).boundaries().cutPoints();
        // The other keys spread evenly over [0, DOMAIN): six equal ranges cut at multiples of DOMAIN / 6.
        assertThat(without).hasSize(5);
        for (int i = 0; i < without.length; i++) {
            assertThat((double) without[i]).isCloseTo((i + 1) * DOMAIN / 6.0,
                    offset(DOMAIN * 0.01));
        }
        assertThat(with).isNotEqualTo(without);
    }

    @Test
    void withHeavyKeysSwitchedOffEveryKeyGoesToItsOwner() {
        final LocalShuffle how = joinDecision(decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_RANGE, false,
                PROBE, BUILD));
        assertThat(how.heavyKeys()).isEmpty();
    }

    @Test
    void aKeyHeavyOnBothSidesIsNotCopiedToEveryBucket() {
        final PointMassTable heavyBuild = new PointMassTable("b", 20, 6);
        final LocalShuffle how = joinDecision(decide(join(JoinType.INNER, PROBE, heavyBuild), Strategy.SHUFFLE_RANGE,
                true, PROBE, heavyBuild));
        assertThat(how.heavyKeys()).isEmpty();
    }

    @Test
    void leftSemiAndAntiJoinsCopyTheirBuildRowsButRightSemiJoinsDoNot() {
        for (final JoinType type : List.of(JoinType.LEFT, JoinType.SEMI, JoinType.ANTI)) {
            assertThat(joinDecision(decide(join(type, PROBE, BUILD), Strategy.SHUFFLE_HASH, true, PROBE, BUILD))
                    .heavyKeys()).as(type.name()).extracting(HeavyKey::key).containsExactly(HEAVY);
        }
        assertThat(joinDecision(decide(join(JoinType.RIGHT_SEMI, PROBE, BUILD), Strategy.SHUFFLE_HASH, true, PROBE,
                BUILD)).heavyKeys()).isEmpty();
    }

    @Test
    void aForcedHashShuffleKeepsHashingTheOtherKeys() {
        final LocalShuffle how = joinDecision(decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_HASH, true,
                PROBE, BUILD));
        assertThat(how.choice()).isEqualTo(Distribution.SHUFFLE_HASH);
        assertThat(how.boundaries()).isNull();
        assertThat(how.heavyKeys()).extracting(HeavyKey::key).containsExactly(HEAVY);
    }

    @Test
    void aKeyOfAFortiethIsHeavyForAHashShuffleButNotForARangeSplit() {
        // 1/40 of the rows: above an eighth of a bucket (1/48) but below half a bucket (1/12) on 6 buckets.
        final PointMassTable probe = new PointMassTable("p", 40, 1);
        assertThat(joinDecision(decide(join(JoinType.INNER, probe, BUILD), Strategy.SHUFFLE_HASH, true, probe, BUILD))
                .heavyKeys()).extracting(HeavyKey::key).containsExactly(HEAVY);
        assertThat(joinDecision(decide(join(JoinType.INNER, probe, BUILD), Strategy.SHUFFLE_RANGE, true, probe, BUILD))
                .heavyKeys()).isEmpty();
    }

    @Test
    void aGroupByOnTheJoinKeyAboveAPerKeyJoinShufflesAgain() {
        final Plan grouped = join(JoinType.INNER, PROBE, BUILD).aggregate(Plan.groupBy("kp"), Plan.count("n"));
        final DecidedPlan on = decide(grouped, Strategy.SHUFFLE_RANGE, true, PROBE, BUILD);
        final DecidedPlan off = decide(grouped, Strategy.SHUFFLE_RANGE, false, PROBE, BUILD);
        // A heavy key's rows sit in every bucket after the join: reusing its buckets would split that key's group.
        assertThat(on.decisionOf(on.root()).choice()).isNotEqualTo(Distribution.REUSE_SHUFFLE);
        assertThat(off.decisionOf(off.root()).choice()).isEqualTo(Distribution.REUSE_SHUFFLE);
    }

    @Test
    void aGroupByOnAHeavyKeyAggregatesPartiallyUnlessItCountsDistinctValues() {
        final Plan counted = Plan.scan("p", "kp", "p_v").aggregate(Plan.groupBy("kp"), Plan.count("n"));
        final DecidedPlan on = decide(counted, Strategy.SHUFFLE_RANGE, true, PROBE);
        assertThat(on.heavyKeysOf(on.root())).extracting(HeavyKey::key).containsExactly(HEAVY);
        final DecidedPlan off = decide(counted, Strategy.SHUFFLE_RANGE, false, PROBE);
        assertThat(off.heavyKeysOf(off.root())).isEmpty();
        final Plan distinct = Plan.scan("p", "kp", "p_v").aggregate(Plan.groupBy("kp"),
                Plan.countDistinct(Expr.col("p_v"), "n"));
        final DecidedPlan partialImpossible = decide(distinct, Strategy.SHUFFLE_RANGE, true, PROBE);
        assertThat(partialImpossible.heavyKeysOf(partialImpossible.root())).isEmpty();
    }

    @Test
    void theDecidedPlanShipsTheHeavyKeys() {
        final DecidedPlan decided = decide(join(JoinType.INNER, PROBE, BUILD), Strategy.SHUFFLE_RANGE, true, PROBE,
                BUILD);
        final DecidedPlan shipped = PlanCodec.decodeDecided(PlanCodec.encodeDecided(decided));
        final LocalShuffle sent = joinDecision(decided);
        final LocalShuffle received = joinDecision(shipped);
        assertThat(received.heavyKeys()).isEqualTo(sent.heavyKeys());
        assertThat(received.boundaries().cutPoints()).isEqualTo(sent.boundaries().cutPoints());
        assertThat(shipped.config().heavyKeys()).isTrue();
    }
}
