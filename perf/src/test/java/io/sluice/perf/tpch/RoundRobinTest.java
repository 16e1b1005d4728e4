package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.Strategy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A nested-loop join whose probe rows are all on the coordinator (a merge group-by's groups, under auto
 * and broadcast) spreads them round-robin over every CN of an embedded 3x2 cluster and copies its small
 * build side to each: the decision says ROUND_ROBIN and an ANY exchange carries the probe rows; on one CN
 * the build side is gathered instead. The answers equal DuckDB's under every strategy, for inner, left,
 * semi and anti joins.
 */
class RoundRobinTest {
    @TempDir
    static Path dir;

    private static SqlOracle sql;

    @BeforeAll
    static void generate() throws Exception {
        sql = SqlOracle.generate(dir);
    }

    @AfterAll
    static void close() {
        if (sql != null) {
            sql.close();
        }
    }

    private static final String GROUPS = "(SELECT o_orderstatus, count(*) AS n FROM orders GROUP BY o_orderstatus) g";

    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        final List<String> queries = List.of(
                "SELECT g.o_orderstatus, g.n, r.r_name FROM " + GROUPS + " JOIN region r"
                        + " ON g.n > r.r_regionkey * 3000 ORDER BY 1, 3",
                "SELECT g.o_orderstatus, g.n, r.r_name FROM " + GROUPS + " LEFT JOIN region r"
                        + " ON g.n < r.r_regionkey * 1000 ORDER BY 1, 3",
                "SELECT g.o_orderstatus, g.n FROM " + GROUPS + " WHERE EXISTS (SELECT 1 FROM nation n"
                        + " WHERE g.n < n.n_nationkey * 300) ORDER BY 1",
                "SELECT g.o_orderstatus, g.n FROM " + GROUPS + " WHERE NOT EXISTS (SELECT 1 FROM nation n"
                        + " WHERE g.n < n.n_nationkey * 300) ORDER BY 1");
        for (final String q : queries) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q, strategy));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("queriesAndStrategies")
    void theCoordinatorsProbeRowsAreSpreadRoundRobinOverEveryCn(final String query, final Strategy strategy)
            throws Exception {
        final Session.Execution execution = sql.assertOnCluster("3x2", "round robin", query, strategy);
        final Session.Execution oneCn = sql.assertOnCluster("1x1", "round robin", query, strategy);
        if (strategy != Strategy.AUTO && strategy != Strategy.BROADCAST) {
            // A forced shuffle (or a group-by that is not a merge group) leaves the groups on every CN.
            return;
        }
        assertThat(execution.decisions()).filteredOn(d -> d.operator().contains("nested loop join"))
                .extracting(Decision::choice).containsExactly(Distribution.ROUND_ROBIN);
        assertThat(execution.stats().exchanges()).extracting(QueryStats.ExchangeStats::mode).contains("ANY");
        assertThat(oneCn.decisions()).filteredOn(d -> d.operator().contains("nested loop join"))
                .extracting(Decision::choice).as("one CN: nowhere to spread to").containsExactly(Distribution.GATHER);
    }
}
