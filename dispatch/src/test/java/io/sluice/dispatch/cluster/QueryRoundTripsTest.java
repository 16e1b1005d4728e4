package io.sluice.dispatch.cluster;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control round trips of a query, counted on the coordinator: the only CN of a query runs it once
 * compiled, with no Start to wait for, while a query of several CNs starts each of them once all have
 * prepared; CN 0's result batches go on to the client one by one, as many as the client decodes.
 */
@Timeout(120)
class QueryRoundTripsTest {
    private static final int ROWS = 40_000;
    private static final Plan DISTINCT_KEYS = Plan.scan("t", "k", "v")
            .aggregate(Plan.groupBy("k"), Plan.count("rows"), Plan.sum(col("v"), "total"));

    @TempDir
    Path dir;

    @Test
    void aOneCnQueryRunsWithoutAStartAndAQueryOfTwoCnsStartsEach() {
        final Store store = store();
        try (Session session = new Session(store, new Topology(1, 1))) {
            final Coordinator coordinator = session.coordinator();
            assertRowsOf(session.execute("one cn", DISTINCT_KEYS, StrategyConfig.defaults()).result());
            assertThat(coordinator.startsSent()).as("Start messages after a one-CN query").isZero();

            session.topology(new Topology(2, 1));
            assertRowsOf(session.execute("two cns", DISTINCT_KEYS, StrategyConfig.defaults()).result());
            assertThat(coordinator.startsSent()).as("Start messages after a two-CN query").isEqualTo(2);
        }
    }

    @Test
    void theCoordinatorRelaysEachResultBatchTheClientDecodes() {
        final Store store = store();
        try (Session session = new Session(store, new Topology(1, 1))) {
            final QueryResult result = session.execute("many rows", DISTINCT_KEYS, StrategyConfig.defaults()).result();
            assertRowsOf(result);
            assertThat(result.batches()).as("a result of several batches").hasSizeGreaterThan(1);
            assertThat(session.coordinator().resultBatchesRelayed()).isEqualTo(result.batches().size());
        }
    }

    @Test
    void aPlanReadingATableTheStoreLacksIsRefusedNamingItAndTheSessionRunsTheNext() {
        final Store store = store();
        try (Session session = new Session(store, new Topology(1, 1))) {
            assertThatThrownBy(() -> session.execute("missing", Plan.scan("nope", "k"), StrategyConfig.defaults()))
                    .isInstanceOfSatisfying(QueryFailedException.class,
                            e -> assertThat(e.errorType()).isEqualTo("IllegalArgumentException"))
                    .hasMessageContaining("has no table [nope] (it has [t])");
            assertRowsOf(session.execute("after", DISTINCT_KEYS, StrategyConfig.defaults()).result());
        }
    }

    /** Every key once, each counted once with its own value. */
    private static void assertRowsOf(final QueryResult result) {
        assertThat(result.rowCount()).isEqualTo(ROWS);
        final boolean[] seen = new boolean[ROWS];
        for (final List<Object> row : result.rows()) {
            final int key = Math.toIntExact(((Number) row.get(0)).longValue());
            assertThat(seen[key]).as("key %d seen before", key).isFalse();
            seen[key] = true;
            assertThat(((Number) row.get(1)).longValue()).as("rows of key %d", key).isEqualTo(1);
            assertThat(((Number) row.get(2)).longValue()).as("total of key %d", key).isEqualTo(3L * key);
        }
    }

    private Store store() {
        return KeyValueStore.create(dir.resolve("store"), ROWS);
    }
}
