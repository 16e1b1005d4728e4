package io.sluice.dispatch.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.FragmentType;
import io.sluice.shuffle.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operator table of a hand-made plan, line by line: the columns as wide as their widest cell,
 * operators indented by depth, a local exchange decided for an operator's input as a
 * {@code LOCAL EXCHANGE (<TYPE>)} row without an id under it, and "Outputs &amp; filters" per id; after
 * ANALYZE, the actual rows and time columns and an exchange's rows and bytes.
 */
class OperatorTableTest {
    private static ExplainPlan plan(final boolean analyzed) {
        final ExplainOperator gather = new ExplainOperator(0, 0, "EXCHANGE IN DISTR", ":EX0", 30, 900, 0, List.of("k"),
                List.of("dispatch(GATHER)"), new ExplainOperator.Exchange(0, "GATHER", List.of(), "", -1, false),
                List.of(), List.of(1), null, null);
        final ExplainOperator out = new ExplainOperator(1, 1, "EXCHANGE OUT DISTR", ":EX0", 30, 600, 1, List.of("k"),
                List.of("dispatch(GATHER)", "est_cross_cn_rows(20)"),
                new ExplainOperator.Exchange(0, "GATHER", List.of(), "SINGLE", 20, true), List.of("(PASSTHROUGH)"),
                List.of(2), null, null);
        final ExplainOperator scan = new ExplainOperator(2, 2, "TABLE SCAN", "t", 30, 240, 1, List.of("k"),
                List.of("filter(nil)"), null, List.of(), List.of(), null, null);
        final List<ExplainOperator> ops = analyzed
                ? List.of(gather.withActual(new ExplainOperator.Actual(28, 1_500_000, -1, -1, -1, -1)),
                        out.withActual(new ExplainOperator.Actual(28, 2_000_000, 19, 400, 9, 200)),
                        scan.withActual(new ExplainOperator.Actual(28, 10_000_000, -1, -1, -1, -1)))
                : List.of(gather, out, scan);
        return new ExplainPlan("t", new Topology(3, 1), "auto", true, List.of(), List.of(), ops,
                List.of(new ExplainFragment(0, FragmentType.SINGLE, "the result", List.of(0), List.of(), List.of(1)),
                        new ExplainFragment(1, FragmentType.SOURCE, "EXCHANGE OUT DISTR", List.of(1, 2), List.of(),
                                List.of())), List.of(3), analyzed);
    }

    @Test
    void theTableIndentsByDepthAndListsLocalExchangesUnderTheirOperator() {
        assertThat(OperatorTable.render(plan(false)).split("\n")).containsExactly(
                "=======================================================",
                "|ID|OPERATOR                      |NAME|EST. ROWS|COST|",
                "-------------------------------------------------------",
                "|0 |EXCHANGE IN DISTR             |:EX0|30       |900 |",
                "|1 | EXCHANGE OUT DISTR           |:EX0|30       |600 |",
                "|  |  LOCAL EXCHANGE (PASSTHROUGH)|    |         |    |",
                "|2 |  TABLE SCAN                  |t   |30       |240 |",
                "=======================================================",
                "Outputs & filters:",
                "-------------------------------------",
                "  0 - output([k]), dispatch(GATHER)",
                "  1 - output([k]), dispatch(GATHER), est_cross_cn_rows(20)",
                "  2 - output([k]), filter(nil)");
    }

    @Test
    void analyzeAddsRowsTimeAndWhatTheExchangeSent() {
        final String[] lines = OperatorTable.render(plan(true)).split("\n");
        assertThat(lines[1]).isEqualTo("|ID|OPERATOR                      |NAME|EST. ROWS|COST|ACT. ROWS|TIME(ms)|");
        assertThat(lines[4]).isEqualTo("|1 | EXCHANGE OUT DISTR           |:EX0|30       |600 |28       |2.0     |");
        assertThat(lines).contains("  1 - output([k]), dispatch(GATHER), est_cross_cn_rows(20),"
                + " sent(rows_remote=19, bytes_remote=400, rows_local=9, bytes_local=200)");
    }
}
