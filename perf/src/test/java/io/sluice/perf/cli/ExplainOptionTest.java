package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.tpch.TpchSql;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --explain} of {@code sluice query} and {@code sluice sql}: alone or {@code =plan} it prints the plan
 * and runs nothing (no rows); {@code =analyze} prints the rows a plain run prints and the plan with actuals;
 * any other value is an error listing the valid ones.
 */
class ExplainOptionTest {
    @TempDir
    static Path dir;

    private static Path store;

    @BeforeAll
    static void generate() throws Exception {
        store = dir.resolve("store");
        final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", store.toString());
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
    }

    @Test
    void explainAloneAndExplainPlanOnlyPlan() {
        for (final String option : new String[] {"--explain", "--explain=plan"}) {
            final Cli.Result r = Cli.run("query", "--store", store.toString(), "--tpch", "3", "--cores", "2", option);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).as("%s runs nothing", option).isEmpty();
            assertThat(r.err()).contains("Plan of q3 on 1x2", "|ID|OPERATOR", "Outputs & filters:", "Fragment 0 [");
        }
        final Cli.Result cluster = Cli.run("query", "--store", store.toString(), "--tpch", "18", "--cn", "3", "--cores",
                "2", "--explain", "plan");
        assertThat(cluster.exitCode()).as(cluster.toString()).isZero();
        assertThat(cluster.out()).isEmpty();
        assertThat(cluster.err()).contains("Distributed plan of q18 on 3x2", "|ID|OPERATOR", "EXCHANGE IN DISTR");
    }

    @Test
    void explainAnalyzePrintsTheRowsAndThePlanWithActuals() {
        final Cli.Result plain = Cli.run("query", "--store", store.toString(), "--tpch", "3", "--cores", "2", "--format",
                "csv");
        final Cli.Result analyzed = Cli.run("query", "--store", store.toString(), "--tpch", "3", "--cores", "2",
                "--explain=analyze", "--format", "csv");
        assertThat(analyzed.exitCode()).as(analyzed.toString()).isZero();
        assertThat(analyzed.out()).isEqualTo(plain.out()).isNotEmpty();
        assertThat(analyzed.err()).contains(", analyzed", "ACT. ROWS", "TIME(ms)");
        final Cli.Result sql = Cli.run("sql", "--store", store.toString(), "--cores", "2", "--explain=analyze",
                "--format", "csv", TpchSql.text(3));
        assertThat(sql.exitCode()).as(sql.toString()).isZero();
        assertThat(sql.out()).isEqualTo(plain.out());
        assertThat(sql.err()).contains("ACT. ROWS");
    }

    @Test
    void sqlExplainBeforeTheStatementPlansItWithoutRunningIt() {
        final Cli.Result r = Cli.run("sql", "--store", store.toString(), "--cores", "2", "--explain", TpchSql.text(3));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("Plan of sql on 1x2", "|ID|OPERATOR");
    }

    @Test
    void aBogusValueIsAnErrorListingTheValidOnes() {
        final Cli.Result query = Cli.run("query", "--store", store.toString(), "--tpch", "3", "--explain=bogus");
        assertThat(query.exitCode()).isNotZero();
        assertThat(query.err()).contains("--explain takes one of plan, analyze", "got 'bogus'");
        assertThat(query.out()).isEmpty();
        final Cli.Result sql = Cli.run("sql", "--store", store.toString(), "--explain=bogus", "select 1");
        assertThat(sql.exitCode()).isNotZero();
        assertThat(sql.err()).contains("--explain takes one of plan, analyze");
    }
}
