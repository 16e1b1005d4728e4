package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** A SQL filter on the sort column makes the scan read only the blocks whose zonemaps can hold a passing row. */
class BlockPruningFromFiltersTest extends OverTestStore {
    /** The blocks of t whose k zonemap overlaps [lo, hi], counted from the zonemaps. */
    private static int overlapping(final long lo, final long hi) {
        final BlockTable t = store.catalog().table("t");
        int n = 0;
        for (int b = 0; b < t.blockCount(); b++) {
            final ZoneMap z = t.zoneMap(b, 0);
            if (z.max() >= lo && z.min() <= hi) {
                n++;
            }
        }
        return n;
    }

    private static QueryResult run(final String sql) {
        store.resetCounts();
        try (QueryRunner runner = new QueryRunner(store.catalog(), 2)) {
            return runner.run(planner.plan(sql).plan());
        }
    }

    @Test
    void aRangeOnTheSortColumnReadsOnlyTheBlocksItMust() {
        final QueryResult r = run("select count(*) as n, sum(v) as total from t where k between 4500 and 7200");
        assertThat(r.value(0, 0)).isEqualTo(7200L - 4500 + 1);
        long cents = 0;
        for (long k = 4500; k <= 7200; k++) {
            cents += k % 100;
        }
        assertThat(r.value(0, 1)).isEqualTo(BigDecimal.valueOf(cents, 2));
        assertThat(store.blocksRead()).isEqualTo(overlapping(4500, 7200)).isEqualTo(4);
    }

    @Test
    void constantsAreFoldedBeforePruningAndBothBoundsCount() {
        final QueryResult r = run("select count(*) as n from t where k >= 1000 + 2000 and k < 2 * 2500 and v > 0.5");
        long expected = 0;
        for (long k = 3000; k < 5000; k++) {
            expected += k % 100 > 50 ? 1 : 0;
        }
        assertThat(r.value(0, 0)).isEqualTo(expected);
        assertThat(store.blocksRead()).isEqualTo(overlapping(3000, 4999)).isEqualTo(2);
    }

    @Test
    void aFilterNoZonemapCanJudgeReadsEveryBlock() {
        final QueryResult r = run("select count(*) as n from t where s = 's3' or k = 5");
        long expected = 0;
        for (long k = 0; k < TestStore.ROWS; k++) {
            expected += k % 7 == 3 || k == 5 ? 1 : 0;
        }
        assertThat(r.value(0, 0)).isEqualTo(expected);
        assertThat(store.blocksRead()).isEqualTo(TestStore.ROWS / TestStore.BLOCK_ROWS);
    }

    @Test
    void thePlannedScanCarriesThePruningAndReadsOnlyTheColumnsTheQueryUses() {
        final PlannedQuery planned = planner.plan("select sum(v) as total from t where k < 1500");
        PlanNode node = planned.plan().node();
        while (!(node instanceof PlanNode.Scan)) {
            node = node instanceof PlanNode.Project p ? p.input() : ((PlanNode.Aggregation) node).input();
        }
        final PlanNode.Scan scan = (PlanNode.Scan) node;
        assertThat(scan.pruning()).hasToString("[k < 1500]");
        assertThat(scan.columns()).containsExactlyInAnyOrder("k", "v");
        assertThat(planned.estimates()).anySatisfy(e -> assertThat(e).contains("2 of 20 blocks kept"));
    }
}
