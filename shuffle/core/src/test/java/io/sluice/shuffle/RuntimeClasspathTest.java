package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The bucketing core a storage engine embeds stays small: its run-time dependencies (as Maven
 * resolved them for this build, {@code target/runtime-dependencies.txt}) are the format, zonemap,
 * Agrona, RoaringBitmap and DataSketches, and none of the heavy libraries of the layers above it.
 */
class RuntimeClasspathTest {
    /** What the core may need at run time (groupId:artifactId). A new entry needs a reason and the list in docs/embedding.md. */
    static final Set<String> ALLOWED = Set.of("io.sluice:sluice-format", "io.sluice:sluice-zonemap",
            "org.agrona:agrona", "org.roaringbitmap:RoaringBitmap",
            // The table sketches zonemaps cannot replace: quantiles and heavy keys of unsorted tables.
            "org.apache.datasketches:datasketches-java", "org.apache.datasketches:datasketches-memory");
    /** Group ids that must never reach the core, whatever pulls them in. */
    static final List<String> BANNED_GROUPS = List.of("io.trino.tpch", "org.duckdb", "org.apache.calcite",
            "org.jfree", "info.picocli", "com.google.guava", "net.openhft", "net.java.dev.jna", "io.aeron");

    /** The rule: every artifact allowed and none banned; the list names each one that breaks it. */
    static List<String> violations(final List<String> artifacts) {
        final List<String> problems = new ArrayList<>();
        for (final String coordinates : artifacts) {
            final String[] parts = coordinates.split(":");
            final String id = parts[0] + ":" + parts[1];
            if (BANNED_GROUPS.contains(parts[0])) {
                problems.add(coordinates + " is banned from the core");
            } else if (!ALLOWED.contains(id)) {
                problems.add(coordinates + " is not among the core's allowed dependencies " + new TreeSet<>(ALLOWED));
            }
        }
        return problems;
    }

    /** The artifacts of a {@code dependency:list} output file (lines "group:artifact:type:version:scope ..."). */
    static List<String> artifacts(final Path listing) throws IOException {
        final List<String> result = new ArrayList<>();
        for (final String line : Files.readAllLines(listing)) {
            final String entry = line.strip().split("\\s+")[0];
            if (entry.split(":").length >= 5) {
                result.add(entry);
            }
        }
        return result;
    }

    @Test
    void theRuleRejectsAHeavyDependency() {
        final List<String> problems = violations(List.of("org.agrona:agrona:jar:2.3.0:compile",
                "io.trino.tpch:tpch:jar:1.2:compile", "com.example:extra:jar:1.0:runtime"));
        assertThat(problems).hasSize(2);
        assertThat(problems.get(0)).startsWith("io.trino.tpch:tpch").contains("banned");
        assertThat(problems.get(1)).startsWith("com.example:extra").contains("not among");
    }

    @Test
    void theCoreNeedsOnlyTheFormatZonemapAgronaRoaringBitmapAndDataSketches() throws IOException {
        final List<String> resolved = artifacts(Path.of("target/runtime-dependencies.txt"));
        assertThat(resolved).as("the build's dependency listing").isNotEmpty();
        assertThat(violations(resolved)).isEmpty();
        assertThat(resolved).hasSize(ALLOWED.size());
    }
}
