package io.sluice.dispatch.cluster;

/**
 * Whether a query's answer carries the text of its distributed plan ({@link Session.Execution#explain()}): the
 * client says so in its request, the coordinator passes it on in every prepare, and CN 0 renders the plan only
 * when asked, so a query nobody explains does not pay for rendering it.
 */
public enum ExplainText {
    /** No plan text: the answer's {@code explain()} is null. */
    NONE,
    /** CN 0 renders the distributed plan it compiled, as {@code --explain} prints it, cut to fit one message. */
    RENDERED
}
