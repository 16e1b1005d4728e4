package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a group-by is distributed, and the reason code and numbers it gives. */
class DetermineGroupStrategyTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);
    private static final long MIN_DISTINCT = 50_000;
    private static final StrategyConfig AUTO = StrategyConfig.defaults().withStrategy(Strategy.AUTO)
            .withThresholds(120_000, MIN_DISTINCT);

    private static LocalShuffle decide(final ZonemapOnlyTable table, final List<Set<String>> partitioning,
                                       final StrategyConfig config, final NamedExpr... keys) {
        final Catalog catalog = Map.<String, BlockTable>of(table.name(), table)::get;
        final PlanNode.Aggregation agg = (PlanNode.Aggregation) Plan.scan(table.name(), "k" + table.name(),
                table.name() + "_v").aggregate(List.of(keys), new Aggregate(AggregateFunction.COUNT_STAR, null, "n")).node();
        return DetermineGroupStrategy.decide(agg, partitioning, config, new PlanStats(catalog), TOPOLOGY);
    }

    @Test
    void withoutKeysPartialGroupsAreMerged() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 10, true), null, AUTO);
        assertThat(how.choice()).isEqualTo(Distribution.MERGE);
        assertThat(how.code()).isEqualTo(DistributionReason.NO_GROUP_KEYS);
    }

    @Test
    void expressionKeysAreMerged() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 10, true), null, AUTO,
                new NamedExpr("k2", Expr.add(Expr.col("kt"), Expr.lit(1))));
        assertThat(how.choice()).isEqualTo(Distribution.MERGE);
        assertThat(how.code()).isEqualTo(DistributionReason.KEYS_ARE_EXPRESSIONS);
    }

    @Test
    void anInputAlreadyShuffledOnTheKeyIsReused() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 10, true), List.of(Set.of("kt")), AUTO,
                NamedExpr.column("kt"));
        assertThat(how.choice()).isEqualTo(Distribution.REUSE_SHUFFLE);
        assertThat(how.code()).isEqualTo(DistributionReason.INPUT_ALREADY_SHUFFLED);
    }

    @Test
    void fewDistinctKeysAreMergedWithTheEstimateAndTheThreshold() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 2, true), null, AUTO, NamedExpr.column("kt"));
        assertThat(how.choice()).isEqualTo(Distribution.MERGE);
        assertThat(how.code()).isEqualTo(DistributionReason.FEW_DISTINCT_KEYS);
        assertThat(how.numbers()[1]).isEqualTo(MIN_DISTINCT);
        assertThat(how.numbers()[0]).isLessThan(MIN_DISTINCT);
    }

    @Test
    void manyDistinctKeysOfAStoredKeyColocateOnRanges() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 100, true), null, AUTO, NamedExpr.column("kt"));
        assertThat(how.choice()).isEqualTo(Distribution.COLOCATE);
        assertThat(how.code()).isEqualTo(DistributionReason.MANY_DISTINCT_KEYS);
        assertThat(how.numbers()[0]).isGreaterThanOrEqualTo(MIN_DISTINCT);
        assertThat(how.rangeKey()).isEqualTo("kt");
        assertThat(how.boundaries().bucketCount()).isEqualTo(TOPOLOGY.bucketCount());
    }

    @Test
    void forcedColocationOfAnInputNotStoredByTheKeyMerges() {
        final LocalShuffle how = decide(new ZonemapOnlyTable("t", 100, false), null,
                AUTO.withStrategy(Strategy.COLOCATE), NamedExpr.column("kt"));
        assertThat(how.choice()).isEqualTo(Distribution.MERGE);
        assertThat(how.code()).isEqualTo(DistributionReason.INPUT_NOT_STORED_BY_KEY);
    }
}
