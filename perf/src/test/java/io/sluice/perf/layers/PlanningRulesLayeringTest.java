package io.sluice.perf.layers;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plans are decided once: the {@code Determine*} rules run only inside the physical planner (its
 * {@code PhysicalPlanner} and the {@code Distributions} it decides with), never in {@code PipelineCompiler}, on a
 * CN ({@code CnQuery}) or anywhere else that compiles or explains a plan.
 */
class PlanningRulesLayeringTest {
    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar.*");
    private static JavaClasses mainClasses;

    @BeforeAll
    static void importMainClasses() {
        mainClasses = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.matches(TEST_JAR))
                .importPackages("io.sluice");
    }

    private static ArchRule onlyThePlannerRuns(final String... planner) {
        var that = noClasses().that().haveSimpleNameNotStartingWith("Determine");
        for (final String name : planner) {
            that = that.and().doNotHaveFullyQualifiedName("io.sluice.engine.plan." + name);
        }
        return that.should().dependOnClassesThat().haveSimpleNameStartingWith("Determine")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.sluice.engine.plan.Distributions")
                .because("the coordinator decides a plan once (PhysicalPlanner) and CNs only cut it into pipelines");
    }

    @Test
    void noPlanningRuleIsReachedFromOutsideThePhysicalPlanner() {
        onlyThePlannerRuns("PhysicalPlanner", "Distributions").check(mainClasses);
    }

    @Test
    void theRuleSeesThePlannerCallTheRules() {
        assertThatThrownBy(() -> onlyThePlannerRuns("Distributions").check(mainClasses))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.sluice.engine.plan.PhysicalPlanner");
    }
}
