package io.sluice.engine.plan;

/**
 * The local exchange in front of one operator input, as {@link DetermineLocalExchanges} decided it.
 *
 * @param node     the operator's plan node (a scan's, for the PASSTHROUGH after it)
 * @param operator what EXPLAIN calls the operator, e.g. {@code join [l_orderkey] = [o_orderkey]}
 * @param input    which input: {@code build}, {@code probe}, or {@code input} for one-input operators
 * @param rule     the table row that applies (null for the PASSTHROUGH after a plain scan, which only
 *                 general rule 3 places)
 * @param type     the local exchange: the row's, or NOOP or PASSTHROUGH where a general rule overrides it
 * @param general  the general rule that decided, or null where the row's type stands
 * @param why      what the input comes from, in words
 */
public record LocalExchange(PlanNode node, String operator, String input, LocalExchangeRule rule, LocalExchangeType type,
                            LocalExchangeRule.GeneralRule general, String why) {
    /** The decision in a few words: type, input, the rule and the general rule that decided. */
    public String brief() {
        return "(" + type + ") " + input + ": " + (rule == null ? "" : rule.operator() + " rule " + rule.number())
                + (general == null ? "" : (rule == null ? "" : ", ") + "general rule " + (general.ordinal() + 1));
    }

    @Override
    public String toString() {
        return "LOCAL EXCHANGE (" + type + ") before " + input + " of " + operator + ": "
                + (rule == null ? "" : rule + (general == null ? "" : ", "))
                + (general == null ? "" : "general rule " + (general.ordinal() + 1)) + "; " + why;
    }
}
