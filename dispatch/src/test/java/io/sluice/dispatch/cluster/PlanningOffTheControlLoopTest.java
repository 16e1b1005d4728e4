package io.sluice.dispatch.cluster;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator decides plans on a thread of its own: while a statement's planning is stuck, the control loop
 * still answers status requests and keeps its CNs, the query then runs as planned, and a query cancelled while it
 * is planned fails at once and leaves the coordinator free for the next.
 */
@Timeout(120)
class PlanningOffTheControlLoopTest {
    private static final int ROWS = 1_000;
    private static final Plan SUM = Plan.scan("t", "k", "v").aggregate(List.of(), Plan.sum(col("v"), "total"));

    @TempDir
    Path dir;

    /** A planner that waits for the test to let it go, and says when it started waiting. */
    private static final class HeldPlanning implements SqlPlanning {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Planned plan(final String sql, final io.sluice.format.spi.Catalog tables) {
            entered.countDown();
            try {
                release.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while planning", e);
            }
            return new Planned(SUM, List.of("total"));
        }
    }

    @Test
    void theControlLoopAnswersWhileAStatementIsPlannedAndTheQueryThenRuns() throws Exception {
        try (Session session = new Session(store(), new Topology(2, 1))) {
            final HeldPlanning planning = new HeldPlanning();
            session.coordinator().sqlPlanning(planning);
            final CompletableFuture<QueryResult> query = CompletableFuture.supplyAsync(() -> session.executeSql("held",
                    "select sum(v) from t", StrategyConfig.defaults(), 0).result());
            assertThat(planning.entered.await(60, TimeUnit.SECONDS)).as("planning started").isTrue();

            final Status status = session.clusterStatus();
            assertThat(status.runningQueries()).as("the query being planned takes a place").isEqualTo(1);
            assertThat(status.members()).extracting(MemberStatus::state).containsOnly(MemberState.ALIVE);
            assertThat(query).as("still planning").isNotDone();

            planning.release.countDown();
            final QueryResult result = query.get(60, TimeUnit.SECONDS);
            assertThat(total(result)).isEqualTo(3L * ROWS * (ROWS - 1) / 2);
        }
    }

    @Test
    void aQueryCancelledWhilePlannedFailsAndTheNextRuns() throws Exception {
        try (Session session = new Session(store(), new Topology(1, 1))) {
            final HeldPlanning planning = new HeldPlanning();
            session.coordinator().sqlPlanning(planning);
            final CompletableFuture<QueryResult> query = CompletableFuture.supplyAsync(() -> session.executeSql("held",
                    "select sum(v) from t", StrategyConfig.defaults(), 0).result());
            assertThat(planning.entered.await(60, TimeUnit.SECONDS)).as("planning started").isTrue();
            session.cancelAll("the test stops it");
            assertThatThrownBy(() -> query.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(QueryFailedException.class)
                    .cause().hasMessageContaining("cancelled by its client: the test stops it");
            assertThat(session.clusterStatus().runningQueries()).isZero();

            planning.release.countDown();
            final QueryResult next = session.execute("next", SUM, StrategyConfig.defaults()).result();
            assertThat(total(next)).isEqualTo(3L * ROWS * (ROWS - 1) / 2);
        }
    }

    private static long total(final QueryResult result) {
        assertThat(result.rowCount()).isEqualTo(1);
        return ((Number) result.rows().get(0).get(0)).longValue();
    }

    private Store store() {
        return KeyValueStore.create(dir.resolve("store"), ROWS);
    }
}
