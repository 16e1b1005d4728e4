package io.sluice.dispatch.cluster;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The names of a SQL statement's result columns reach the client from the coordinator that planned it, two of
 * them alike where SQL names them so, while the rows keep the plan's unique names; a plan's query answers with
 * its own names.
 */
@Timeout(120)
class SqlColumnNamesTest {
    /** Two sums the plan names apart ({@code v}, {@code v0}), as the SQL front end plans two named {@code v}. */
    private static final Plan TWO_SUMS = Plan.scan("t", "k", "v").aggregate(List.of(), Plan.sum(col("v"), "v"),
            Plan.sum(col("k"), "v0"));

    @TempDir
    Path dir;

    @Test
    void sqlTextAnswersWithSqlsNamesAndAPlanWithItsOwn() {
        try (Session session = new Session(KeyValueStore.create(dir.resolve("store"), 100), new Topology(2, 1))) {
            session.coordinator().sqlPlanning((sql, tables) -> new SqlPlanning.Planned(TWO_SUMS, List.of("v", "v")));
            final Session.Execution text = session.executeSql("shared", "select sum(v) as v, sum(k) as v from t",
                    StrategyConfig.defaults(), 0);
            assertThat(text.columns()).containsExactly("v", "v");
            assertThat(text.result().rowType().names()).containsExactly("v", "v0");

            final Session.Execution plan = session.execute("plan", TWO_SUMS, StrategyConfig.defaults());
            assertThat(plan.columns()).containsExactly("v", "v0");
        }
    }

    @Test
    void namesThatDoNotMatchThePlansColumnsGiveWayToThePlansOwn() {
        try (Session session = new Session(KeyValueStore.create(dir.resolve("store"), 100), new Topology(1, 1))) {
            session.coordinator().sqlPlanning((sql, tables) -> new SqlPlanning.Planned(TWO_SUMS, List.of("v")));
            final Session.Execution text = session.executeSql("short", "select 1", StrategyConfig.defaults(), 0);
            assertThat(text.columns()).containsExactly("v", "v0");
            assertThat(session.clusterStatus().runningQueries()).as("the coordinator goes on").isZero();
        }
    }
}
