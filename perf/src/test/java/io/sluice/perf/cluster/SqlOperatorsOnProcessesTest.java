package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.duckdb.DuckDbLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Window functions, nested-loop joins and scalar subqueries through {@code sluice sql --coordinator}
 * on a coordinator and two CN processes of two cores: the plans are shipped to the processes (plan
 * format 7), each CN compiles its share, and the rows printed are DuckDB's; a scalar subquery of two
 * rows fails the statement with the error a CN raised.
 */
class SqlOperatorsOnProcessesTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithSecret(dir, 0.01, 2, 2, "-Xmx384m");
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(fixture.oracle().store(), List.of("nation", "region", "customer", "orders"), duck);
    }

    @AfterAll
    static void stop() {
        CloseHelper.closeAll(duck, fixture);
    }

    private static Cli.Result sql(final String... args) {
        final List<String> all = new ArrayList<>(List.of("sql", "--store", fixture.oracle().store().dir().toString(),
                "--coordinator", fixture.cluster().endpoint().toString(), "--secret-file",
                fixture.secretFile().toString(), "--timeout", "120000"));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select o_custkey, o_orderkey, rank() over (partition by o_custkey order by o_totalprice desc) as r,"
                + " sum(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey) as s"
                + " from orders where o_custkey < 100 order by o_custkey, o_orderkey",
        "select n_name, row_number() over (order by n_name) as rn, count(*) over () as total from nation"
                + " order by n_name",
        "select n_name, r_name from nation, region where n_regionkey < r_regionkey order by n_name, r_name",
        "select c_custkey, c_acctbal from customer where c_acctbal > (select avg(c_acctbal) * 1.9 from customer)"
                + " order by c_custkey",
        "select n_name, (select r_name from region where r_regionkey = n_regionkey) as r from nation order by n_name",
    })
    void aStatementRunsOnTheCnProcessesWithDuckDbsRows(final String statement) throws Exception {
        for (final String strategy : List.of("auto", "shuffle-hash")) {
            final Cli.Result r = sql(statement, "--strategy", strategy, "--format", "csv");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(List.of(r.out().split("\r\n"))).as(strategy).isEqualTo(DuckDbCsv.of(duck, statement));
        }
    }

    @Test
    void aScalarSubqueryOfTwoRowsFailsTheStatementWithTheCnsError() {
        final Cli.Result r = sql("select n_name, (select r_name from region where r_regionkey < 2) as r from nation");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice sql: error: ")
                .contains("scalar subquery returned more than one row: the subquery over [region]");
    }
}
