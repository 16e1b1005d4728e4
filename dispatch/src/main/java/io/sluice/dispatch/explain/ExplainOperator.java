package io.sluice.dispatch.explain;

import java.util.List;

/**
 * One row of the operator table (seed 001): an operator of the distributed plan, numbered in
 * pre-order from the root, indented by its depth, with its zonemap estimate and cost, what its
 * "Outputs &amp; filters" line says, and after ANALYZE what it did.
 *
 * @param id             its number, 0 for the root, children after their parent
 * @param depth          0 for the root, one more per level
 * @param operator       the operator as the table names it, e.g. {@code HASH JOIN},
 *                       {@code EXCHANGE OUT DISTR (RANGE)}
 * @param name           the table a scan reads or the exchange ({@code :EX<n>}); empty otherwise
 * @param estRows        rows out, estimated from zonemaps ({@code PlanStats}), over every CN; -1 unknown
 * @param cost           {@link CostModel} of this operator and everything below it
 * @param fragment       the fragment ({@link ExplainFragment#id}) it runs in
 * @param outputs        its output columns
 * @param details        its filters, keys, partitions, each as {@code name(value)}
 * @param exchange       for an exchange's two operators, which one and what it moves; else null
 * @param localExchanges the local exchanges (seed 000) decided in front of this operator's inputs
 *                       ({@code LocalExchange.brief()}: type, input, rule), printed as
 *                       {@code LOCAL EXCHANGE (<TYPE>) ...} rows under it
 * @param children       the ids of its inputs
 * @param counted        where a run's counters for it are; null when none are
 * @param actual         what a run did; null before ANALYZE
 */
public record ExplainOperator(int id, int depth, String operator, String name, long estRows, long cost, int fragment,
                              List<String> outputs, List<String> details, Exchange exchange,
                              List<String> localExchanges, List<Integer> children, Counted counted, Actual actual) {
    public ExplainOperator {
        outputs = List.copyOf(outputs);
        details = List.copyOf(details);
        localExchanges = List.copyOf(localExchanges);
        children = List.copyOf(children);
    }

    /** The same operator with what a run did. */
    public ExplainOperator withActual(final Actual a) {
        return new ExplainOperator(id, depth, operator, name, estRows, cost, fragment, outputs, details, exchange,
                localExchanges, children, counted, a);
    }

    /**
     * An exchange, as its EXCHANGE OUT and EXCHANGE IN rows show it.
     *
     * @param id                its number within the query (the id of its stats)
     * @param mode              the dispatch mode the plan asked for
     * @param keys              the columns it shuffles by; empty when it does not
     * @param partitioning      how it spreads rows: HASH, RANGE, PKEY, BROADCAST or SINGLE (gather)
     * @param estCrossCnRows    rows the plan sends from one CN to another: 0 where none leaves its CN
     *                          (one CN, a LOCAL_ONLY dispatch, input already bucketed by the same buckets)
     * @param out               true on the EXCHANGE OUT row, false on EXCHANGE IN
     */
    public record Exchange(int id, String mode, List<String> keys, String partitioning, long estCrossCnRows,
                           boolean out) {
        public Exchange {
            keys = List.copyOf(keys);
        }
    }

    /**
     * Where a run's counters ({@code PipelineCounters}) for an operator are: its rows out at one step of
     * one pipeline, its time the sum of some steps.
     *
     * @param rowsPipeline the pipeline (index in run order) whose step counts its rows out
     * @param rowsStep     that step
     * @param timeSteps    pairs (pipeline, step) whose time is this operator's
     */
    public record Counted(int rowsPipeline, int rowsStep, List<int[]> timeSteps) {
        public Counted {
            timeSteps = List.copyOf(timeSteps);
        }
    }

    /**
     * What a run did, summed over every CN.
     *
     * @param rows        rows out
     * @param nanos       time in it alone, summed over its workers and CNs
     * @param rowsRemote  for an exchange: rows sent from one CN to another (-1: not an exchange, or unknown)
     * @param bytesRemote bytes of those
     * @param rowsLocal   rows delivered inside their CN
     * @param bytesLocal  bytes of those
     */
    public record Actual(long rows, long nanos, long rowsRemote, long bytesRemote, long rowsLocal, long bytesLocal) {
    }
}
