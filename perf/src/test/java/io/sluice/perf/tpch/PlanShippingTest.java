package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.ShippedPlan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered query's plan, shipped under every strategy, alone and in a UNION ALL, decodes on
 * a CN to the plan the coordinator built.
 */
class PlanShippingTest {
    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy s : Strategy.values()) {
                cases.add(Arguments.of(q.name(), s));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queriesAndStrategies")
    void aShippedPlanDecodesToTheSamePlanAndConfig(final String name, final Strategy strategy) {
        final Plan plan = byName(name).plan();
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
        final ShippedPlan shipped = PlanCodec.decode(PlanCodec.encode(plan, config));
        assertThat(shipped.plan().node()).isEqualTo(plan.node());
        assertThat(shipped.plan().toString()).isEqualTo(plan.toString());
        assertThat(shipped.config()).isEqualTo(config);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queriesAndStrategies")
    void aShippedUnionAllOfQueryPlansDecodesToTheSamePlan(final String name, final Strategy strategy) {
        final Plan plan = byName(name).plan();
        final Plan union = plan.unionAll(plan, byName("q1").plan());
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
        final ShippedPlan shipped = PlanCodec.decode(PlanCodec.encode(union, config));
        assertThat(shipped.plan().node()).isEqualTo(union.node());
        assertThat(shipped.plan().toString()).isEqualTo(union.toString());
    }

    /** Guards the test above against passing vacuously over an empty registry. */
    @Test
    void theRegistryHasQueriesToShip() {
        assertThat(Queries.all()).extracting(Query::name).contains("q1", "q18", "join_lo");
    }

    private static Query byName(final String name) {
        for (final Query q : Queries.all()) {
            if (q.name().equals(name)) {
                return q;
            }
        }
        throw new IllegalArgumentException("no registered query '" + name + "'");
    }
}
