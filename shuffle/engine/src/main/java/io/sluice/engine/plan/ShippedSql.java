package io.sluice.engine.plan;

/**
 * A SQL statement with the strategy configuration to plan it under: what a client that has no store sends the
 * coordinator ({@link PlanCodec#encodeSql}), which plans and decides it.
 */
public record ShippedSql(String sql, StrategyConfig config) {
    public ShippedSql {
        if (sql == null || sql.isBlank() || config == null) {
            throw new IllegalArgumentException("shipped SQL needs a statement and a strategy config, got sql=" + sql
                    + ", config=" + config);
        }
    }
}
