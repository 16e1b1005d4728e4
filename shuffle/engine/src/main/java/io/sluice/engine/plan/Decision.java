package io.sluice.engine.plan;

/**
 * What a planner rule chose for one join or group-by, and why: one line of {@code --explain}.
 *
 * @param operator the join or group-by, e.g. {@code join [l_orderkey] = [o_orderkey]}
 * @param choice   the distribution chosen
 * @param reason   the numbers behind it
 */
public record Decision(String operator, Distribution choice, String reason) {
    @Override
    public String toString() {
        return operator + ": " + choice + " (" + reason + ")";
    }
}
