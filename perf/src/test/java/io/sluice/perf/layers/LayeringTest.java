package io.sluice.perf.layers;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of the module map in docs/architecture.md, as rules over the compiled classes of every module (tests
 * left out): each layer uses only the layers below it, and no packages depend on each other in a
 * cycle; Calcite is used by the SQL layer alone. {@link #theRulesCatchAClassThatReachesUp} shows
 * that a violation fails them.
 */
class LayeringTest {
    /** A module's test classes packaged for another module's tests ({@code sluice-shuffle-...-tests.jar}). */
    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar.*");
    private static JavaClasses mainClasses;

    @BeforeAll
    static void importMainClasses() {
        mainClasses = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.matches(TEST_JAR))
                .importPackages("io.sluice");
    }

    /** One layer per module; a layer may be used only by those named, all above it. */
    static LayeredArchitecture layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("format").definedBy("io.sluice.format..")
                .layer("storage").definedBy("io.sluice.storage..")
                .layer("parquet").definedBy("io.sluice.parquet..")
                .layer("s3").definedBy("io.sluice.s3..")
                .layer("iceberg").definedBy("io.sluice.iceberg..")
                .layer("zonemap").definedBy("io.sluice.zonemap..")
                .layer("core").definedBy("io.sluice.shuffle..")
                .layer("engine").definedBy("io.sluice.engine..")
                .layer("sql").definedBy("io.sluice.sql..")
                .layer("transport").definedBy("io.sluice.transport..")
                .layer("dispatch").definedBy("io.sluice.dispatch..")
                .layer("tools").definedBy("io.sluice.perf..")
                .whereLayer("tools").mayNotBeAccessedByAnyLayer()
                .whereLayer("dispatch").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("transport").mayOnlyBeAccessedByLayers("dispatch", "tools")
                .whereLayer("sql").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("sql", "dispatch", "tools")
                .whereLayer("core").mayOnlyBeAccessedByLayers("engine", "dispatch", "tools")
                .whereLayer("zonemap").mayOnlyBeAccessedByLayers("core", "engine", "sql", "dispatch", "tools")
                .whereLayer("storage").mayOnlyBeAccessedByLayers("s3", "dispatch", "tools")
                .whereLayer("parquet").mayOnlyBeAccessedByLayers("iceberg", "tools")
                .whereLayer("iceberg").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("s3").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("format").mayOnlyBeAccessedByLayers("storage", "parquet", "s3", "iceberg", "zonemap", "core", "engine", "sql",
                        "dispatch", "tools");
    }

    /** Inside the layers that have several packages, the order their package docs describe. */
    static LayeredArchitecture packagesWithinLayers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("spi").definedBy("io.sluice.format.spi..")
                .layer("bucketing").definedBy("io.sluice.shuffle")
                .layer("shuffle operator").definedBy("io.sluice.shuffle.operator..")
                .layer("wire").definedBy("io.sluice.engine.wire..")
                .layer("filter").definedBy("io.sluice.engine.filter..")
                .layer("expr").definedBy("io.sluice.engine.expr..")
                .layer("exec").definedBy("io.sluice.engine.exec..")
                .layer("plan").definedBy("io.sluice.engine.plan..")
                .layer("data plane").definedBy("io.sluice.dispatch")
                .layer("control plane").definedBy("io.sluice.dispatch.control..")
                .layer("cluster").definedBy("io.sluice.dispatch.cluster..")
                .whereLayer("bucketing").mayOnlyBeAccessedByLayers("shuffle operator", "expr", "exec", "plan",
                        "data plane", "control plane", "cluster")
                .whereLayer("wire").mayOnlyBeAccessedByLayers("filter", "plan", "control plane", "cluster")
                .whereLayer("filter").mayOnlyBeAccessedByLayers("exec", "plan", "data plane", "control plane", "cluster")
                .whereLayer("expr").mayOnlyBeAccessedByLayers("exec", "plan", "data plane", "control plane", "cluster")
                .whereLayer("exec").mayOnlyBeAccessedByLayers("plan", "data plane", "control plane", "cluster")
                .whereLayer("plan").mayOnlyBeAccessedByLayers("data plane", "control plane", "cluster")
                .whereLayer("data plane").mayOnlyBeAccessedByLayers("cluster")
                .whereLayer("control plane").mayOnlyBeAccessedByLayers("cluster")
                .whereLayer("cluster").mayNotBeAccessedByAnyLayer();
    }

    /** Calcite is the SQL layer's alone: nothing a storage engine embeds, nor the cluster runtime, refers to it. */
    static ArchRule calciteOnlyInTheSqlLayer() {
        return noClasses().that().resideInAnyPackage("io.sluice.format..", "io.sluice.storage..", "io.sluice.zonemap..",
                        "io.sluice.shuffle..", "io.sluice.engine..", "io.sluice.transport..", "io.sluice.dispatch..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.calcite..");
    }

    /** parquet-java is the Parquet module's alone: the engine and the cluster read Parquet through the storage SPI. */
    static ArchRule parquetJavaOnlyInTheParquetLayer() {
        return noClasses().that().resideOutsideOfPackage("io.sluice.parquet..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.parquet..");
    }

    /** The AWS SDK is the S3 module's alone: everything else reads a store on object storage as a local store. */
    static ArchRule awsSdkOnlyInTheS3Layer() {
        return noClasses().that().resideOutsideOfPackage("io.sluice.s3..")
                .should().dependOnClassesThat().resideInAPackage("software.amazon.awssdk..");
    }

    /** iceberg-core is the Iceberg module's alone: everything else reads an Iceberg table through the storage SPI. */
    static ArchRule icebergOnlyInTheIcebergLayer() {
        return noClasses().that().resideOutsideOfPackage("io.sluice.iceberg..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.iceberg..");
    }

    static ArchRule noPackageCycles() {
        return slices().matching("io.sluice.(**)").should().beFreeOfCycles();
    }

    @Test
    void eachModuleUsesOnlyTheModulesBelowIt() {
        layers().check(mainClasses);
    }

    @Test
    void calciteStaysInTheSqlLayer() {
        calciteOnlyInTheSqlLayer().check(mainClasses);
    }

    @Test
    void parquetJavaStaysInTheParquetModule() {
        parquetJavaOnlyInTheParquetLayer().check(mainClasses);
    }

    @Test
    void theAwsSdkStaysInTheS3Module() {
        awsSdkOnlyInTheS3Layer().check(mainClasses);
    }

    @Test
    void icebergStaysInTheIcebergModule() {
        icebergOnlyInTheIcebergLayer().check(mainClasses);
    }

    @Test
    void packagesInsideAModuleFollowTheirOrder() {
        packagesWithinLayers().check(mainClasses);
    }

    @Test
    void noPackagesDependOnEachOtherInACycle() {
        noPackageCycles().check(mainClasses);
    }

    @Test
    void theRulesCatchAClassThatReachesUp() {
        final JavaClasses violating = new ClassFileImporter().importPackages("io.sluice.zonemap.layering",
                "io.sluice.engine.plan");
        assertThatThrownBy(() -> layers().check(violating)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.sluice.zonemap.layering.ReachesUp")
                .hasMessageContaining("io.sluice.engine.plan.Plan");
    }
}
