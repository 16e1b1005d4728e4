package io.sluice.engine.plan;

/**
 * A plan with the strategy configuration it is to be compiled under: what a coordinator ships to
 * the compute nodes ({@link PlanCodec#encode}) and what each of them gets back
 * ({@link PlanCodec#decode}). Plans compare by identity, so compare {@code plan().node()}.
 */
public record ShippedPlan(Plan plan, StrategyConfig config) {
    public ShippedPlan {
        if (plan == null || config == null) {
            throw new IllegalArgumentException("a shipped plan needs a plan and a strategy config, got plan=" + plan
                    + ", config=" + config);
        }
    }
}
